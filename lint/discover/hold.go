package discover

import (
	"sync"

	"github.com/ckptlint/ckptlint/lint/parsed"
	"github.com/ckptlint/ckptlint/lint/template"
)

// holds counts, per file, the config sets being assembled or evaluated
// that read it (Options.Lazy). Assembly holds a file on one goroutine while
// evaluation lets go of others on another, hence the lock; a file's
// entries are written only under it, when no set holds the file.
type holds struct {
	mu sync.Mutex
	n  map[*parsed.File]int
}

// Hold makes f's entries and notices readable (parsing it again if a lazy
// run dropped them) until a matching Release. Outside a lazy run it does
// nothing.
func (d *Tree) Hold(f *parsed.File) {
	if !d.lazy || f == nil {
		return
	}
	h := &d.holds
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.n == nil {
		h.n = map[*parsed.File]int{}
	}
	if h.n[f] == 0 {
		f.Load()
	}
	h.n[f]++
}

// Release undoes one Hold; the last one frees f's parsed form when f can
// parse it again. Outside a lazy run it does nothing.
func (d *Tree) Release(f *parsed.File) {
	if !d.lazy || f == nil {
		return
	}
	h := &d.holds
	h.mu.Lock()
	defer h.mu.Unlock()
	switch h.n[f] {
	case 0:
		return
	case 1:
		delete(h.n, f)
		// A file that cannot parse again keeps its entries: a set still
		// to come may read it (a Hadoop directory several Flink files
		// name, a manifest two deployment blocks name).
		f.Drop()
	default:
		h.n[f]--
	}
}

// Remark applies the placeholder recogniser to f, a file assembly made
// from one discovery parsed (lint/assemble substitution), as discovery
// marks the files it parses: unless placeholders are literal.
func (d *Tree) Remark(f *parsed.File) {
	if !d.literal {
		template.Mark(f, "")
	}
}
