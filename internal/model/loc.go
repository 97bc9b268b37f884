package model

import (
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Loc is where a value sits, in the shape rules pass back in findings.
type Loc struct {
	File string
	Span parsed.Span
}

// LocOf returns the location of span s in file.
func LocOf(file string, s parsed.Span) *Loc {
	if s.IsZero() {
		return &Loc{File: file, Span: parsed.At(parsed.Top())}
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

// locKeys are the keys of a loc object, as terms built once.
var locKeys = [7]*ast.Term{
	ast.StringTerm("file"), ast.StringTerm("line"), ast.StringTerm("col"), ast.StringTerm("offset"),
	ast.StringTerm("end_line"), ast.StringTerm("end_col"), ast.StringTerm("end_offset"),
}

// toInput builds the loc object directly as an OPA value: every key, notice
// and effective value carries one, so they are most of the input document.
// A nil Loc is the empty object (what a nil map converted to).
func (l *Loc) toInput() ast.Value {
	if l == nil {
		return ast.NewObject()
	}
	return ast.NewObject(
		ast.Item(locKeys[0], ast.StringTerm(l.File)),
		ast.Item(locKeys[1], ast.InternedTerm(l.Span.Start.Line)),
		ast.Item(locKeys[2], ast.InternedTerm(l.Span.Start.Col)),
		ast.Item(locKeys[3], ast.InternedTerm(l.Span.Start.Offset)),
		ast.Item(locKeys[4], ast.InternedTerm(l.Span.End.Line)),
		ast.Item(locKeys[5], ast.InternedTerm(l.Span.End.Col)),
		ast.Item(locKeys[6], ast.InternedTerm(l.Span.End.Offset)),
	)
}

// locs are the loc objects of one input document by place: a value's
// loc is its entry's (entryLoc), which the file's keys, key uses and
// unknown keys carry too, so each is built once per document.
type locs map[Loc]ast.Value

// of is l's object, built on first use; a nil locs builds every time.
func (m locs) of(l *Loc) ast.Value {
	if l == nil || m == nil {
		return l.toInput()
	}
	if o, ok := m[*l]; ok {
		return o
	}
	o := l.toInput()
	m[*l] = o
	return o
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
	return &Loc{File: f, Span: parsed.Span{
		Start: parsed.Pos{Line: num("line"), Col: num("col"), Offset: num("offset")},
		End:   parsed.Pos{Line: num("end_line"), Col: num("end_col"), Offset: num("end_offset")},
	}}
}
