package core

import "testing"

func TestBudgetSpendsAndRefills(t *testing.T) {
	t.Parallel()
	if NewBudget(0) != nil || NewBudget(-1) != nil {
		t.Fatal("a budget of no retries is no budget")
	}
	var none *Budget
	if !none.take(RetryCost) || none.Available() != 0 {
		t.Fatal("no budget never refuses")
	}
	none.give(5)
	b := NewBudget(2)
	if first, second := b.take(RetryCost), b.take(RetryCost); !first || !second {
		t.Fatal("a budget of two retries allows two")
	}
	if b.take(RetryCost) {
		t.Fatal("the third retry is refused")
	}
	b.give(SuccessRefill)
	if b.take(RetryCost) {
		t.Fatal("one success at the first attempt gives back a tenth of a retry")
	}
	b.give(100 * RetryCost)
	if got := b.Available(); got != 2 {
		t.Fatalf("refills stop at the size: %v", got)
	}
	if !b.take(TimeoutRetryCost) || b.take(RetryCost) {
		t.Fatal("a retry after a timeout costs two")
	}
}
