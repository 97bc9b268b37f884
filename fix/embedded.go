package fix

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// blockView is the text of a configuration file written as a YAML
// literal block (or a heredoc) inside another file (parsed.Embed), as the
// program reads it: each line with the block's indentation taken off. An
// editor edits it; edits maps those edits back onto the container's bytes,
// giving each line it writes the block's indentation, so that the block
// stays a block and everything outside it stays byte for byte.
type blockView struct {
	text   []byte
	indent string
	end    int   // the container offset of the end of the block
	dstart []int // per line: its start in text
	cstart []int // per line: where text's line starts in the container
	cline  []int // per line: where the container's line starts, indentation included
}

// viewOf is the view of the block e in container.
func viewOf(container []byte, e *parsed.Embed) (*blockView, error) {
	if e.Start < 0 || e.End > len(container) || e.Start > e.End {
		return nil, fmt.Errorf("the block moved since it was read")
	}
	v := &blockView{indent: e.Indent, end: e.End}
	for p := e.Start; p < e.End; {
		q := p + bytes.IndexByte(container[p:e.End], '\n') + 1
		if q <= p {
			q = e.End
		}
		line := container[p:q]
		strip := 0
		if bytes.HasPrefix(line, []byte(e.Indent)) {
			strip = len(e.Indent)
		} else {
			for strip < len(line) && line[strip] == ' ' {
				strip++
			}
		}
		v.dstart = append(v.dstart, len(v.text))
		v.cstart = append(v.cstart, p+strip)
		v.cline = append(v.cline, p)
		v.text = append(v.text, line[strip:]...)
		p = q
	}
	return v, nil
}

// container maps an offset of the view's text to the container: the
// start of a line to the start of the container's line, before its
// indentation, so that text written there (indented by edits) comes
// before the line and a removed line takes its indentation with it.
func (v *blockView) container(off int) int {
	if off >= len(v.text) {
		return v.end
	}
	i := sort.Search(len(v.dstart), func(i int) bool { return v.dstart[i] > off }) - 1
	if off == v.dstart[i] {
		return v.cline[i]
	}
	return v.cstart[i] + off - v.dstart[i]
}

// edits maps edits of the view's text onto the container: offsets
// through container, and every line the text writes starting at a line
// start with the block's indentation.
func (v *blockView) edits(es []parsed.Edit) []parsed.Edit {
	out := make([]parsed.Edit, len(es))
	for i, e := range es {
		atStart := e.Start == 0 || v.text[e.Start-1] == '\n'
		var b strings.Builder
		for j := 0; j < len(e.Text); j++ {
			c := e.Text[j]
			if atStart && c != '\n' {
				b.WriteString(v.indent)
			}
			atStart = c == '\n'
			b.WriteByte(c)
		}
		start, end := v.container(e.Start), v.container(e.End)
		if e.Start >= len(v.text) && e.Start > 0 && v.text[len(v.text)-1] != '\n' {
			// An append to a block whose last line has no line break ends
			// that line first.
			out[i] = parsed.Edit{Start: start, End: end, Text: "\n" + b.String()}
			continue
		}
		out[i] = parsed.Edit{Start: start, End: end, Text: b.String()}
	}
	return out
}
