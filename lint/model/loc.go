package model

import (
	"github.com/ckptlint/ckptlint/lint/parsed"
	"github.com/ckptlint/ckptlint/lint/span"
)

// Loc is where a value sits, in the shape rules pass back in findings.
type Loc struct {
	File string
	Span span.Span
}

// LocOf returns the location of span s in file.
func LocOf(file string, s span.Span) *Loc {
	if s.IsZero() {
		return &Loc{File: file, Span: span.At(span.Top())}
	}
	return &Loc{File: file, Span: s}
}

// entryLoc is the location of an entry: its key through its value, which is
// what a reader looks at.
func entryLoc(e *parsed.Entry) *Loc {
	s := e.KeySpan
	if !e.ValueSpan.IsZero() && e.ValueSpan.End.Offset >= s.End.Offset {
		s.End = e.ValueSpan.End
	}
	return LocOf(e.File, s)
}

func (l *Loc) toInput() map[string]any {
	if l == nil {
		return nil
	}
	return map[string]any{
		"file":       l.File,
		"line":       l.Span.Start.Line,
		"col":        l.Span.Start.Col,
		"offset":     l.Span.Start.Offset,
		"end_line":   l.Span.End.Line,
		"end_col":    l.Span.End.Col,
		"end_offset": l.Span.End.Offset,
	}
}

// LocFromInput reads back a loc object a rule returned.
func LocFromInput(m map[string]any) *Loc {
	if m == nil {
		return nil
	}
	num := func(k string) int {
		switch x := m[k].(type) {
		case int:
			return x
		case int64:
			return int(x)
		case float64:
			return int(x)
		case interface{ Int64() (int64, error) }:
			n, _ := x.Int64()
			return int(n)
		}
		return 0
	}
	f, _ := m["file"].(string)
	return &Loc{File: f, Span: span.Span{
		Start: span.Pos{Line: num("line"), Col: num("col"), Offset: num("offset")},
		End:   span.Pos{Line: num("end_line"), Col: num("end_col"), Offset: num("end_offset")},
	}}
}
