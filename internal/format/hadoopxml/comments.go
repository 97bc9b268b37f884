package hadoopxml

import (
	"bytes"
	"slices"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// comment records the comment at src[start:end], whose text ends at
// textEnd ("-->" excluded).
func (fp *fileParser) comment(start, end, textEnd int) {
	fp.comments.List = append(fp.comments.List, parsed.Comment{
		Span: fp.sp(start, end), Text: fp.sp(start+len("<!--"), textEnd)})
}

// directiveComments records the comments inside a directive token (a
// DOCTYPE's internal subset), which encoding/xml drops from the directive
// it returns. They are found as it finds them (encoding/xml rawToken): a
// "<!--" outside a quoted literal, after the directive's first byte,
// starts one and the next "-->" ends it; a literal holding "<!--" holds
// no comment.
func (fp *fileParser) directiveComments(t tok) {
	raw := fp.src[t.start:min(t.end, len(fp.src))]
	if !bytes.HasPrefix(raw, []byte("<!")) || !bytes.Contains(raw, []byte("<!--")) {
		return // a processing instruction, or no comment
	}
	var quote byte
	for i := len("<!x"); i < len(raw); i++ {
		switch c := raw[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '<' && bytes.HasPrefix(raw[i:], []byte("<!--")):
			k := bytes.Index(raw[i+len("<!--"):], []byte("-->"))
			if k < 0 {
				return // cannot be: the directive ended
			}
			textEnd := i + len("<!--") + k
			fp.comment(t.start+i, t.start+textEnd+len("-->"), t.start+textEnd)
			i = textEnd + len("-->") - 1
		}
	}
}

// unterminatedComment records the comment the file ends in without its
// "-->", when that is what the scanner failed on: what Hadoop would read
// of it before it fails too.
func (fp *fileParser) unterminatedComment() {
	at := fp.sc.last
	if at < len(fp.src) && bytes.HasPrefix(fp.src[at:], []byte("<!--")) && !bytes.Contains(fp.src[at+len("<!--"):], []byte("-->")) {
		fp.comment(at, len(fp.src), len(fp.src))
	}
}

// keepComments keeps the comments of a file read: the top-level file's in
// File.Comments, an include's in File.IncludeComments unless that target
// was read before.
func (p *parser) keepComments(c *parsed.Comments, top bool) {
	switch {
	case top:
		p.doc.Comments = c
	case !slices.ContainsFunc(p.incComments, func(d *parsed.Comments) bool { return d.File == c.File }):
		p.incComments = append(p.incComments, c)
	}
}
