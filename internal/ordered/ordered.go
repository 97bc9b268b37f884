// Package ordered runs work over a sequence on a bounded pool of
// goroutines and hands the results back in the sequence's order, with at
// most a fixed number of items between the sequence and the caller: a
// streaming lint run assembles the next config sets while the current ones
// are evaluated, and holds only those sets' parsed files
// (docs/performance.md, "Memory at 10,000 sets").
//
// github.com/sourcegraph/conc's stream package keeps the order too, but a
// task cannot stop the stream, which a failing set must.
package ordered

import (
	"iter"
	"runtime"
	"sync"
)

// Map ranges over seq on a goroutine of its own, runs work on each item on
// up to workers goroutines (GOMAXPROCS when workers <= 0) and calls yield
// with each item and its result in the order of seq, on the calling
// goroutine. At most 2×workers+2 items have left seq and not reached
// yield.
// The first error, from work (in the order of seq) or from yield, stops the
// run: seq's loop is left (its yield returns false) and every goroutine has
// ended before Map returns it.
func Map[T, R any](seq iter.Seq[T], workers int, work func(T) (R, error), yield func(T, R) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type job struct {
		item T
		res  R
		err  error
		done chan struct{}
	}
	jobs := make(chan *job)
	order := make(chan *job, 2*workers) // in the order of seq; its bound is the backpressure
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				j.res, j.err = work(j.item)
				close(j.done)
			}
		}()
	}
	fed := make(chan struct{})
	go func() {
		defer close(fed)
		defer close(order)
		defer close(jobs)
		for item := range seq {
			j := &job{item: item, done: make(chan struct{})}
			select {
			case order <- j:
			case <-stop:
				return
			}
			select {
			case jobs <- j:
			case <-stop:
				return
			}
		}
	}()
	defer func() {
		close(stop)
		<-fed
		wg.Wait()
	}()
	for j := range order {
		<-j.done
		if j.err != nil {
			return j.err
		}
		res := j.res
		var zero R
		j.res = zero // the caller owns it now
		if err := yield(j.item, res); err != nil {
			return err
		}
	}
	return nil
}
