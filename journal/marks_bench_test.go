package journal_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// BenchmarkOrderedOnce is the cost per notification of ordering with
// once-only handling on each store, around a callback that costs nothing:
// TrackingHandler (one write orders and claims, one ends the lease)
// against tracking.WithOrdering(Marks) composed with Once (the mark, then
// the claim, then its settlement), for a new notification and a stale one.
func BenchmarkOrderedOnce(b *testing.B) {
	nop := func(context.Context, *tracking.Notification) error { return nil }
	kinds := map[string]func(j *journal.Journal) http.Handler{
		"TrackingHandler": func(j *journal.Journal) http.Handler { return j.TrackingHandler(nop) },
		"Once+Marks": func(j *journal.Journal) http.Handler {
			return tracking.NewHandler(j.Once(nop), tracking.WithOrdering(j.Marks()))
		},
	}
	for _, store := range []string{"memory", "sqlite", "postgres"} {
		for _, kind := range []string{"TrackingHandler", "Once+Marks"} {
			b.Run(store+"/"+kind+"/new", func(b *testing.B) {
				h := kinds[kind](journal.New(benchStores(b)[store](b)))
				i := 0
				for b.Loop() {
					i++
					if code := deliver(h, notificationAt(fmt.Sprintf("94004%017d", i%50), t0.Add(time.Duration(i)*time.Second))); code != http.StatusNoContent {
						b.Fatalf("answered %d", code)
					}
				}
			})
			b.Run(store+"/"+kind+"/stale", func(b *testing.B) {
				h := kinds[kind](journal.New(benchStores(b)[store](b)))
				body := notificationAt("9400400000000000000001", t0)
				if code := deliver(h, body); code != http.StatusNoContent {
					b.Fatalf("answered %d", code)
				}
				for b.Loop() {
					if code := deliver(h, body); code != http.StatusNoContent {
						b.Fatalf("answered %d", code)
					}
				}
			})
		}
	}
}
