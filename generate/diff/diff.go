// Package diff renders unified diffs of whole files, for `ckptlint fix
// --diff`. Lines are compared exactly, line endings included, so a CRLF
// file shows as CRLF.
package diff

import (
	"bytes"
	"fmt"
	"strings"
)

// context is the number of unchanged lines shown around a change.
const context = 3

// maxCells bounds the LCS table; larger inputs are shown as one hunk that
// replaces the whole file.
const maxCells = 25_000_000

// Unified returns the unified diff of a and b labelled with the file names,
// or "" when they are equal.
func Unified(oldName, newName string, a, b []byte) string {
	if bytes.Equal(a, b) {
		return ""
	}
	x, y := splitLines(a), splitLines(b)
	ops := lineOps(x, y)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	for _, h := range hunks(ops) {
		writeHunk(&out, h, x, y)
	}
	return out.String()
}

// splitLines splits after each '\n', keeping it.
func splitLines(b []byte) []string {
	var out []string
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			out = append(out, string(b))
			break
		}
		out = append(out, string(b[:i+1]))
		b = b[i+1:]
	}
	return out
}

type opKind byte

const (
	same opKind = iota
	del
	ins
)

type op struct {
	kind opKind
	i, j int // line indexes in x (for same/del) and y (for same/ins)
}

// lineOps is the edit script of an LCS over lines.
func lineOps(x, y []string) []op {
	n, m := len(x), len(y)
	if n*m > maxCells {
		var ops []op
		for i := range x {
			ops = append(ops, op{del, i, 0})
		}
		for j := range y {
			ops = append(ops, op{ins, n, j})
		}
		return ops
	}
	// lcs[i][j] = LCS length of x[i:], y[j:].
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []op
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			ops = append(ops, op{same, i, j})
			i++
			j++
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{del, i, j})
			i++
		default:
			ops = append(ops, op{ins, i, j})
			j++
		}
	}
	return ops
}

// hunks groups ops into runs of changes with context lines around them.
func hunks(ops []op) [][]op {
	var out [][]op
	start := -1
	lastChange := -1
	for k, o := range ops {
		if o.kind == same {
			if start >= 0 && k-lastChange > 2*context {
				out = append(out, ops[start:lastChange+context+1])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = max(0, k-context)
		}
		lastChange = k
	}
	if start >= 0 {
		out = append(out, ops[start:min(len(ops), lastChange+context+1)])
	}
	return out
}

func writeHunk(out *strings.Builder, h []op, x, y []string) {
	oldStart, newStart := h[0].i, h[0].j
	oldN, newN := 0, 0
	for _, o := range h {
		if o.kind != ins {
			oldN++
		}
		if o.kind != del {
			newN++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", rangeOf(oldStart, oldN), rangeOf(newStart, newN))
	for _, o := range h {
		var prefix, line string
		switch o.kind {
		case same:
			prefix, line = " ", x[o.i]
		case del:
			prefix, line = "-", x[o.i]
		case ins:
			prefix, line = "+", y[o.j]
		}
		out.WriteString(prefix)
		out.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

func rangeOf(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
