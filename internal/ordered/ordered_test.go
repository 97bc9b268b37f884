package ordered

import (
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"
)

// count yields 0..n-1, counting the items in flight (taken from the
// sequence, not yet given to yield) and noting when its loop was left.
type count struct {
	n        int
	inflight atomic.Int64
	most     atomic.Int64
	left     atomic.Bool
}

func (c *count) seq(yield func(int) bool) {
	defer c.left.Store(true)
	for i := range c.n {
		if v := c.inflight.Add(1); v > c.most.Load() {
			c.most.Store(v)
		}
		if !yield(i) {
			return
		}
	}
}

func jitter() { time.Sleep(time.Duration(rand.IntN(200)) * time.Microsecond) }

// TestMapOrderAndBound: results come back in the sequence's order, each
// with its own item, and no more than 2×workers+2 items are ever between
// the sequence and yield.
func TestMapOrderAndBound(t *testing.T) {
	for _, workers := range []int{1, 2, 5} {
		c := &count{n: 500}
		next := 0
		err := Map(c.seq, workers, func(i int) (int, error) { jitter(); return i * i, nil }, func(i, sq int) error {
			c.inflight.Add(-1)
			if i != next || sq != i*i {
				t.Fatalf("workers %d: got item %d (result %d), want %d", workers, i, sq, next)
			}
			next++
			return nil
		})
		if err != nil || next != c.n {
			t.Fatalf("workers %d: err %v after %d items", workers, err, next)
		}
		if most := c.most.Load(); most > int64(2*workers+2) {
			t.Errorf("workers %d: %d items in flight, want at most %d", workers, most, 2*workers+2)
		}
	}
}

// TestMapStops: the first error in the order of the sequence, from work or
// from yield, is returned after the sequence's loop was left, and no item
// after it reaches yield.
func TestMapStops(t *testing.T) {
	boom := errors.New("boom")
	for _, from := range []string{"work", "yield"} {
		c := &count{n: 1000}
		last := -1
		err := Map(c.seq, 2, func(i int) (int, error) {
			jitter()
			if from == "work" && i >= 100 {
				return 0, boom
			}
			return i, nil
		}, func(i, _ int) error {
			last = i
			if from == "yield" && i == 100 {
				return boom
			}
			return nil
		})
		if !errors.Is(err, boom) {
			t.Fatalf("%s: err = %v", from, err)
		}
		if want := map[string]int{"work": 99, "yield": 100}[from]; last != want {
			t.Errorf("%s: last item yielded %d, want %d", from, last, want)
		}
		if !c.left.Load() {
			t.Errorf("%s: Map returned before the sequence's loop was left", from)
		}
	}
}
