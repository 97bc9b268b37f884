// Package gctune sets the garbage collector for ckptlint's runs. Most are
// short and keep little live: one config set in a pre-commit hook, a few
// thousand in CI. With Go's default (GOGC=100) a run on 2,000 config sets
// collected about 48 times, 10-11% of its CPU time (GODEBUG=gctrace=1),
// over a live heap of 8-9 MB; measured on the shared development machine,
// GOGC=400 took its CPU time from 2.16 to 1.77 s, while GOGC=400 alone
// doubled the peak RSS of a 10,000-set run (113 → 231 MiB), whose live
// heap grows to about 30 MB (docs/performance.md, "Garbage collection").
package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

const (
	// shortGOGC is GOGC while the live heap is small.
	shortGOGC = 400
	// smallHeap is the live heap above which Go's default applies again:
	// the heap then grows to at most about 5 x 16 MiB before a collection.
	smallHeap = 16 << 20
)

// Short sets GOGC to shortGOGC until a collection finds more than
// smallHeap live, then back to Go's default. It does nothing when the
// environment sets GOGC or GOMEMLIMIT: the user's setting wins.
func Short() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(shortGOGC)
	watch()
}

// watch runs after the next collection (a cleanup of an object nothing
// references): while the live heap stays small it watches the one after.
func watch() {
	s := new([16]byte) // not a tiny allocation, which a cleanup may never see freed
	runtime.AddCleanup(s, func(struct{}) {
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > smallHeap {
			debug.SetGCPercent(100)
			return
		}
		watch()
	}, struct{}{})
}
