package parsed

import "strings"

// LineBreak returns the first line break of src ("\r\n", "\r" or "\n"), or
// "\n" when src has none. Editors write new lines with it so that a CRLF
// file stays CRLF.
func LineBreak(src []byte) string {
	for i, c := range src {
		switch c {
		case '\n':
			return "\n"
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				return "\r\n"
			}
			return "\r"
		}
	}
	return "\n"
}

// LineBounds returns the line that holds byte offset off: start is its
// first byte, end the offset of its line break (or len(src) when it has
// none) and next the first byte after the break (next == end when the line
// is the last one and has no break). An offset on a line break belongs to
// the line the break ends.
func LineBounds(src []byte, off int) (start, end, next int) {
	off = max(0, min(off, len(src)))
	if off > 0 && off < len(src) && src[off] == '\n' && src[off-1] == '\r' {
		off-- // the "\n" of "\r\n" belongs with its "\r"
	}
	start = off
	for start > 0 && src[start-1] != '\n' && src[start-1] != '\r' {
		start--
	}
	end = off
	for end < len(src) && src[end] != '\n' && src[end] != '\r' {
		end++
	}
	next = end
	switch {
	case next+1 < len(src) && src[next] == '\r' && src[next+1] == '\n':
		next += 2
	case next < len(src):
		next++
	}
	return start, end, next
}

// InsertAfterLine returns the edit that inserts lines (each without a line
// break) after the line holding byte offset off, each ended with nl. When
// that line is the last one and has no line break, the new lines go after
// nl instead, and the last new line has none, so the file keeps its
// missing final newline.
func InsertAfterLine(src []byte, off int, lines []string, nl string) Edit {
	_, end, next := LineBounds(src, off)
	text := strings.Join(lines, nl)
	if next == end { // last line, no line break
		return Edit{Start: end, End: end, Text: nl + text}
	}
	return Edit{Start: next, End: next, Text: text + nl}
}

// AppendLines returns the edit that adds lines at the end of src, like
// InsertAfterLine after the last line; an empty src, or one that ends with
// a line break, gets the lines each followed by nl.
func AppendLines(src []byte, lines []string, nl string) Edit {
	text := strings.Join(lines, nl)
	n := len(src)
	if n == 0 || src[n-1] == '\n' || src[n-1] == '\r' {
		return Edit{Start: n, End: n, Text: text + nl}
	}
	return Edit{Start: n, End: n, Text: nl + text}
}

// DeleteLines returns the edit that deletes whole lines: start must be the
// first byte of a line and end the first byte after a line break (or
// len(src)). When the range reaches the end of a file without a final line
// break, the line break before start is deleted as well, so that the line
// before becomes the last one and the file still ends without one.
func DeleteLines(src []byte, start, end int) Edit {
	n := len(src)
	if end == n && n > 0 && src[n-1] != '\n' && src[n-1] != '\r' && start > 0 {
		switch {
		case src[start-1] == '\n' && start >= 2 && src[start-2] == '\r':
			start -= 2
		case src[start-1] == '\n' || src[start-1] == '\r':
			start--
		}
	}
	return Edit{Start: start, End: end}
}

// SharedSegments counts the equal leading dot-separated segments of two
// keys; editors put a new key after the existing key that shares the most.
func SharedSegments(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] {
		n++
	}
	return n
}
