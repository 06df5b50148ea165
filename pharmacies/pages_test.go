package pharmacies_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
)

// progress is what a walk's progress line shows of a page.
type progress struct {
	Page, TotalPages, Count, Len int
	Address                      string
}

func TestPages_ThreePagesWithProgress(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	var pr pagesResponder
	pr.register(t, env.Mock)

	var got []progress
	for page, err := range env.Client.Pharmacies.Pages(context.Background(), &pharmacies.SearchParams{OriginAddress: origin, PageSize: 3}) {
		require.NoError(t, err)
		got = append(got, progress{page.Page, page.TotalPages, page.Count, len(page.Pharmacies), page.FormattedAddress})
	}
	addr := "42 Elm Ave, Columbus, OH 43210, USA"
	assert.Equal(t, []progress{{1, 3, 7, 3, addr}, {2, 3, 7, 3, addr}, {3, 3, 7, 1, addr}}, got)
	assert.Equal(t, []string{"1", "2", "3"}, pr.pages(t), "stops at total_pages")
}

func TestPages_BreakFetchesNoFurtherPage(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	var pr pagesResponder
	pr.register(t, env.Mock)
	n := 0
	for _, err := range env.Client.Pharmacies.Pages(context.Background(), &pharmacies.SearchParams{OriginAddress: origin}) {
		require.NoError(t, err)
		n++
		break
	}
	assert.Equal(t, 1, n)
	assert.Equal(t, []string{"1"}, pr.pages(t))
}

func TestPages_FailingPageYieldsItsErrorOnceWithNilPage(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t, rxdelivery.WithRetryMax(0))
	pr := pagesResponder{fails: map[string]int{"2": 500}}
	pr.register(t, env.Mock)
	var pages []int
	var errs []error
	for page, err := range env.Client.Pharmacies.Pages(context.Background(), &pharmacies.SearchParams{OriginAddress: origin}) {
		if err != nil {
			assert.Nil(t, page)
			errs = append(errs, err)
			continue // the iterator ends by itself after the error
		}
		pages = append(pages, page.Page)
	}
	assert.Equal(t, []int{1}, pages)
	require.Len(t, errs, 1)
	var ae *rxdelivery.APIError
	require.ErrorAs(t, errs[0], &ae)
	assert.Equal(t, 500, ae.StatusCode)
	assert.Equal(t, []string{"1", "2"}, pr.pages(t))
}

func TestPages_NilParams(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	n := 0
	for page, err := range env.Client.Pharmacies.Pages(context.Background(), nil) {
		n++
		assert.Nil(t, page)
		var ve *rxdelivery.ValidationError
		assert.ErrorAs(t, err, &ve)
	}
	assert.Equal(t, 1, n)
	assert.Zero(t, env.Mock.GetTotalCallCount(), "nothing is sent")
}

// The kit's search (twelve built-in pharmacies) walked page by page, as a
// progress display would.
func TestPages_OnTheKit(t *testing.T) {
	t.Parallel()
	kit := testutil.Setup(t).Kit()
	var got []progress
	for page, err := range kit.Client.Pharmacies.Pages(context.Background(), &pharmacies.SearchParams{OriginAddress: "123 Main St, Columbus, OH 43210", PageSize: 5}) {
		require.NoError(t, err)
		got = append(got, progress{page.Page, page.TotalPages, page.Count, len(page.Pharmacies), ""})
	}
	assert.Equal(t, []progress{{1, 3, 12, 5, ""}, {2, 3, 12, 5, ""}, {3, 3, 12, 2, ""}}, got)
}
