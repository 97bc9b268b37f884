package model

import (
	"github.com/ckptlint/ckptlint/lint/cfgfile"
	"github.com/ckptlint/ckptlint/lint/span"
)

// span1 is the one-character span at a parse error, or line 1 column 1.
func span1(e *cfgfile.ParseError) span.Span {
	if e == nil || e.Pos.Line == 0 {
		return span.Span{Start: span.Pos{Line: 1, Col: 1}, End: span.Pos{Line: 1, Col: 1}}
	}
	return span.Span{Start: e.Pos, End: e.Pos}
}
