package flinkconf

import "bytes"

// lineKind is what Flink's legacy parser makes of one line.
type lineKind int

const (
	kindBlank        lineKind = iota // empty, blank or comment only: skipped silently
	kindEntry                        // "key: value": set
	kindHeader                       // "key:" with nothing after it: skipped (empty value or nested YAML parent)
	kindMissingSpace                 // ':' but no ": ": skipped
	kindNoSeparator                  // no ':': skipped
	kindEmptyKey                     // ": value": skipped
)

// line is one line as java.io.BufferedReader.readLine returns it, with what
// loadLegacyYAMLResource extracts from it. All fields are byte offsets into
// the file; key and value are set for kindEntry, key also for kindHeader and
// kindMissingSpace.
type line struct {
	start, end int // the line without its terminator
	hash       int // the first '#', or -1
	confStart  int // conf: the trimmed text before the first '#'
	confEnd    int
	kind       lineKind
	keyStart   int
	keyEnd     int
	valStart   int
	valEnd     int
}

// indent is the width of the leading characters Java's trim removed.
func (l *line) indent() int { return l.confStart - l.start }

// splitLines splits src the way BufferedReader.readLine does: a line ends at
// "\n", "\r" or "\r\n", and a final line without a terminator still counts.
func splitLines(src []byte) []line {
	var ls []line
	start := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			ls = append(ls, line{start: start, end: i})
			start = i + 1
		case '\r':
			ls = append(ls, line{start: start, end: i})
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	if start < len(src) {
		ls = append(ls, line{start: start, end: len(src)})
	}
	return ls
}

// trim mirrors String.trim on src[s:e]: it drops bytes up to 0x20 (every
// char up to U+0020) from both ends and returns the remaining range.
func trim(src []byte, s, e int) (int, int) {
	for s < e && src[s] <= ' ' {
		s++
	}
	for e > s && src[e-1] <= ' ' {
		e--
	}
	return s, e
}

// classify applies loadLegacyYAMLResource to one line (F1.20
// GlobalConfiguration.java:L226-258): line.split("#", 2)[0].trim(), then
// conf.split(": ", 2), then key and value trimmed.
func classify(src []byte, l *line) {
	l.hash = -1
	pre := l.end
	if h := bytes.IndexByte(src[l.start:l.end], '#'); h >= 0 {
		l.hash = l.start + h
		pre = l.hash
	}
	l.confStart, l.confEnd = trim(src, l.start, pre)
	conf := src[l.confStart:l.confEnd]
	if len(conf) == 0 {
		l.kind = kindBlank
		return
	}
	if sep := bytes.Index(conf, []byte(": ")); sep >= 0 {
		l.keyStart, l.keyEnd = trim(src, l.confStart, l.confStart+sep)
		l.valStart, l.valEnd = trim(src, l.confStart+sep+2, l.confEnd)
		// conf ends in a char above 0x20, so the value is never empty and
		// Flink's "Key or value was empty" can only mean an empty key.
		l.kind = kindEntry
		if l.keyStart == l.keyEnd {
			l.kind = kindEmptyKey
		}
		return
	}
	colon := bytes.IndexByte(conf, ':')
	switch {
	case colon < 0:
		l.kind = kindNoSeparator
	case conf[len(conf)-1] == ':':
		// "key:" (YAML reads "a:b:" as key "a:b" with no value).
		l.keyStart, l.keyEnd = trim(src, l.confStart, l.confEnd-1)
		l.kind = kindHeader
		if l.keyStart == l.keyEnd {
			l.kind = kindEmptyKey
		}
	default:
		l.keyStart, l.keyEnd = trim(src, l.confStart, l.confStart+colon)
		l.kind = kindMissingSpace
	}
}

// isSeqItem reports whether the line is a YAML block sequence item ("- a").
func isSeqItem(src []byte, l *line) bool {
	conf := src[l.confStart:l.confEnd]
	return bytes.Equal(conf, []byte("-")) || bytes.HasPrefix(conf, []byte("- "))
}

// unclosedQuote reports whether v opens a YAML quoted scalar it does not
// close, so that a '#' after it would be inside the quotes.
func unclosedQuote(v []byte) bool {
	if len(v) == 0 || (v[0] != '"' && v[0] != '\'') {
		return false
	}
	q := v[0]
	for i := 1; i < len(v); i++ {
		switch {
		case q == '"' && v[i] == '\\':
			i++
		case v[i] == q:
			if q == '\'' && i+1 < len(v) && v[i+1] == '\'' {
				i++ // '' is an escaped quote
				continue
			}
			return false
		}
	}
	return true
}

// enclosed reports whether v is wrapped in open ... close.
func enclosed(v []byte, open, close byte) bool {
	return len(v) >= 2 && v[0] == open && v[len(v)-1] == close
}

// quoted reports whether v is wrapped in matching single or double quotes.
func quoted(v []byte) bool { return enclosed(v, '"', '"') || enclosed(v, '\'', '\'') }
