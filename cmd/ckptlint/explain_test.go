package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/logs"
)

// TestLogPatternsNameRealRules keeps explain --log and the rule catalogue in
// step: every rule a log pattern points to exists.
func TestLogPatternsNameRealRules(t *testing.T) {
	eng, err := engine.New(context.Background(), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range logs.Patterns() {
		if len(p.Rules) == 0 {
			t.Errorf("pattern %s names no rule", p.ID)
		}
		for _, id := range p.Rules {
			if eng.Rule(id) == nil {
				t.Errorf("pattern %s names %s, which is not a rule", p.ID, id)
			}
		}
	}
}

// matchingLog yields n log lines that every one matches a pattern, and
// calls atEnd once, when the log is exhausted (while explain still holds
// what it kept of it).
type matchingLog struct {
	n     int
	buf   []byte
	atEnd func()
}

func (l *matchingLog) Read(p []byte) (int, error) {
	if len(l.buf) == 0 {
		if l.n == 0 {
			if l.atEnd != nil {
				l.atEnd()
				l.atEnd = nil
			}
			return 0, io.EOF
		}
		l.n--
		l.buf = fmt.Appendf(l.buf[:0], "2026-12-01 10:00:%02d WARN CheckpointCoordinator - Checkpoint %d of job 0f1e2d3c4b5a69788796a5b4c3d2e1f0 expired before completing.\n", l.n%60, l.n)
	}
	n := copy(p, l.buf)
	l.buf = l.buf[n:]
	return n, nil
}

// TestExplainLogStreams: explain --log keeps what it prints (the first
// line of each failure and a count), not every matching line: the heap in
// use when the log ends does not grow with the log (issue 25: a 984 MB log
// whose every line matched used 1.27 GB for 693 bytes of output). Measured
// on 200,000 matching lines (25 MB), which kept every match in about 100 MB.
func TestExplainLogStreams(t *testing.T) {
	var before, atEnd runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	log := &matchingLog{n: 200000, atEnd: func() {
		runtime.GC()
		runtime.ReadMemStats(&atEnd)
	}}
	var out, errs bytes.Buffer
	if code := run(context.Background(), []string{"explain", "--log", "-"}, log, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if !strings.Contains(out.String(), "(and 199999 more line(s) like it)") {
		t.Fatalf("output:\n%s", out.String())
	}
	if grew := int64(atEnd.HeapAlloc) - int64(before.HeapAlloc); grew > 16<<20 {
		t.Errorf("heap in use grew by %d MB over the log; want it bounded", grew>>20)
	}
}

// TestExplainGzipLogStreams: a .gz log is decompressed as it is read, never
// held: on 200,000 matching lines (25 MB decompressed) the heap in use when
// the log ends does not grow with it, as for a plain log.
func TestExplainGzipLogStreams(t *testing.T) {
	var before, atEnd runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	pr, pw := io.Pipe()
	go func() {
		zw := gzip.NewWriter(pw)
		log := &matchingLog{n: 200000, atEnd: func() {
			runtime.GC()
			runtime.ReadMemStats(&atEnd)
		}}
		_, err := io.Copy(zw, log)
		if err == nil {
			err = zw.Close()
		}
		pw.CloseWithError(err)
	}()
	var out, errs bytes.Buffer
	if code := run(context.Background(), []string{"explain", "--log", "-"}, pr, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if !strings.Contains(out.String(), "(and 199999 more line(s) like it)") {
		t.Fatalf("output:\n%s", out.String())
	}
	if grew := int64(atEnd.HeapAlloc) - int64(before.HeapAlloc); grew > 16<<20 {
		t.Errorf("heap in use grew by %d MB over the log; want it bounded", grew>>20)
	}
}
