package engine

import (
	"context"
	"testing"

	"github.com/ckptlint/ckptlint/internal/engine/irplan"
)

// BenchmarkLoad is the first half of New for the embedded bundle on topdown
// (what a run paid before the plan, and what the fallback of a user module
// that shadows lib/ pays): read the sources, parse them (without the
// METADATA blocks, whose rules come from internal/rule's table) and check the
// contract. docs/performance.md, "Startup".
func BenchmarkLoad(b *testing.B) { benchmarkLoad(b, false) }

// BenchmarkLoadMetadata is BenchmarkLoad with the METADATA blocks parsed
// (what Metadata and user policies do), for comparison.
func BenchmarkLoadMetadata(b *testing.B) { benchmarkLoad(b, true) }

func benchmarkLoad(b *testing.B, metadata bool) {
	srcs, err := readSources(Options{})
	if err != nil {
		b.Fatal(err)
	}
	for i := range srcs {
		srcs[i].embedded = srcs[i].embedded && !metadata
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := load(srcs, Options{topdown: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompile is the second half of New for the embedded bundle on
// topdown: compile the parsed modules and prepare the query.
func BenchmarkCompile(b *testing.B) {
	srcs, err := readSources(Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		e, err := load(srcs, Options{topdown: true}) // compile rewrites the modules: a fresh parse each time
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := e.compile(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPreparePlan is what a run does instead of BenchmarkLoad and
// BenchmarkCompile: prepare the generated plan (its constants as terms, its
// functions and built-ins by name), once per process.
func BenchmarkPreparePlan(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := preparePlan(irplan.Embedded); err != nil {
			b.Fatal(err)
		}
	}
}
