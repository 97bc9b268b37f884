package gctune

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestShort: GOGC is 400 while the live heap is small and Go's default
// once a collection finds more than 16 MiB live.
func TestShort(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	Short()
	runtime.GC()
	if p := gcPercent(); p != shortGOGC {
		t.Fatalf("GOGC %d with a small heap, want %d", p, shortGOGC)
	}
	live := make([]byte, 2*smallHeap)
	deadline := time.Now().Add(10 * time.Second)
	for gcPercent() != 100 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(time.Millisecond) // the cleanup runs on its own goroutine
	}
	runtime.KeepAlive(live)
	if p := gcPercent(); p != 100 {
		t.Fatalf("GOGC %d with %d MiB live, want 100", p, len(live)>>20)
	}
}

// TestShortLeavesTheEnvironment: GOGC or GOMEMLIMIT set by the user wins.
func TestShortLeavesTheEnvironment(t *testing.T) {
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv(env, "100")
			defer debug.SetGCPercent(debug.SetGCPercent(100))
			Short()
			if p := gcPercent(); p != 100 {
				t.Fatalf("GOGC %d with %s set, want 100", p, env)
			}
		})
	}
}
