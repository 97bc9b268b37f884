package report

import "bytes"

// indentJSON appends to dst the compact JSON src (as json.Marshal writes
// it: no blank outside strings) indented as json.Indent(dst, src, prefix,
// indent) indents it, byte for byte. json.Indent runs its scanner's state
// machine on every byte; this skips each string with one search for its
// closing quote, and strings are most of a report's bytes (messages and
// details). FuzzIndentJSON holds it to json.Indent.
func indentJSON(dst, src []byte, prefix, indent string) []byte {
	depth := 0
	newline := func() {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for range depth {
			dst = append(dst, indent...)
		}
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			j, q := i+1, -1
			for {
				// The next quote, then whether a backslash comes before
				// it: two IndexByte calls (which use vector
				// instructions) instead of IndexAny's byte loop.
				// The quote is searched for again only once an escape
				// passed it, so a run of escapes stays linear.
				if q < j {
					k := bytes.IndexByte(src[j:], '"')
					if k < 0 {
						j = len(src)
						break
					}
					q = j + k
				}
				if e := bytes.IndexByte(src[j:q], '\\'); e >= 0 {
					j += e + 2
					continue
				}
				j = q
				break
			}
			end := min(j+1, len(src))
			dst = append(dst, src[i:end]...)
			i = end - 1
		case '{', '[':
			dst = append(dst, c)
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, src[i+1])
				i++
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, c, ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
