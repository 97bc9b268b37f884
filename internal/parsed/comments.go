package parsed

import "fmt"

// Comment is one comment of a file, found where the system that reads the
// file finds one (docs/suppressions.md, "Where comments are recognised").
type Comment struct {
	// Span covers the comment, markers included: from '#' to the end of
	// its line, or from "<!--" to the end of "-->" (to the end of the file
	// when the file ends inside the comment).
	Span Span
	// Text covers what lies between the markers.
	Text Span
}

// Comments are the comments of one file together with what a directive
// written in one of them needs of the file's layout: where the file's
// body starts and, in Hadoop XML, where each <property> element lies.
// internal/suppress reads ckptlint:ignore comments from them; which lines
// hold something besides comments follows from Src and the comment spans.
type Comments struct {
	// File is the path the file's findings name: File.Path, or for an
	// xi:include target the path its includer's parse names it with.
	File string
	// Src is the text every span points into (File.Src: a Hadoop file in
	// UTF-16 decoded).
	Src []byte
	// List holds the comments in file order; they never overlap.
	List []Comment
	// Body is the offset of the file's first key (in XML, of the first
	// element inside the root), len(Src) when it has none: what comes
	// before it is the file's head, where a file-level directive goes.
	Body int
	// Elements are the spans of the file's Hadoop <property> elements, in
	// the order they end; nil for other formats.
	Elements []Span
}

// Check reports the first way c breaks what every reader promises of the
// comments it returns, nil when it keeps it: every span lies in Src and
// agrees with its lines (NewLines), comments come in file order without
// overlapping, each one's Text lies inside its Span, and Body lies in Src.
// The readers' fuzz targets hold them to it.
func (c *Comments) Check() error {
	lines := NewLines(c.Src)
	span := func(what string, s Span) error {
		if s.Start.Offset < 0 || s.Start.Offset > s.End.Offset || s.End.Offset > len(c.Src) {
			return fmt.Errorf("%s: span %d..%d outside the %d-byte text", what, s.Start.Offset, s.End.Offset, len(c.Src))
		}
		if s.Start != lines.Pos(s.Start.Offset) || s.End != lines.Pos(s.End.Offset) {
			return fmt.Errorf("%s: span %+v disagrees with the text's lines", what, s)
		}
		return nil
	}
	end := 0
	for i, cm := range c.List {
		what := fmt.Sprintf("comment %d", i)
		if err := span(what, cm.Span); err != nil {
			return err
		}
		if err := span(what+" text", cm.Text); err != nil {
			return err
		}
		if cm.Span.Start.Offset < end {
			return fmt.Errorf("%s at %d starts before the end of the one before (%d)", what, cm.Span.Start.Offset, end)
		}
		if cm.Text.Start.Offset < cm.Span.Start.Offset || cm.Text.End.Offset > cm.Span.End.Offset || cm.Span.Len() == 0 {
			return fmt.Errorf("%s: text %+v outside the comment %+v", what, cm.Text, cm.Span)
		}
		end = cm.Span.End.Offset
	}
	if c.Body < 0 || c.Body > len(c.Src) {
		return fmt.Errorf("body at %d outside the %d-byte text", c.Body, len(c.Src))
	}
	for i, e := range c.Elements {
		if err := span(fmt.Sprintf("element %d", i), e); err != nil {
			return err
		}
	}
	return nil
}
