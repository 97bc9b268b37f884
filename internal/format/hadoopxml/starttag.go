package hadoopxml

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// rawAttr is one attribute of a start tag, located in the source bytes.
type rawAttr struct {
	prefix, local string
	// valStart and valEnd bound the value between its quotes (absolute
	// byte offsets).
	valStart, valEnd int
	// value is the decoded value: entities resolved and literal white space
	// normalised to spaces, as every XML processor (and Hadoop's Woodstox)
	// reports attribute values.
	value string
	// defaulted marks an attribute the start tag lacks and the DTD's
	// ATTLIST supplies (attlist.go); it has no position of its own.
	defaulted bool
}

// startTag is the lexed form of a start tag that encoding/xml has already
// accepted as well-formed.
type startTag struct {
	prefix, local string
	attrs         []rawAttr
	selfClosing   bool
}

// lexStartTag splits the bytes src[start:end] of a well-formed start tag
// ("<p:name a='v' ...>" or ".../>") into its parts. encoding/xml does not
// report attribute positions, so they are recovered here.
func lexStartTag(src []byte, start, end int, ents map[string]string) startTag {
	var t startTag
	i := start + 1 // skip '<'
	ns := i
	for i < end && !isXMLSpace(src[i]) && src[i] != '/' && src[i] != '>' {
		i++
	}
	t.prefix, t.local = splitQName(string(src[ns:i]))
	for i < end {
		for i < end && isXMLSpace(src[i]) {
			i++
		}
		if i >= end || src[i] == '/' || src[i] == '>' {
			break
		}
		an := i
		for i < end && !isXMLSpace(src[i]) && src[i] != '=' {
			i++
		}
		name := string(src[an:i])
		for i < end && (isXMLSpace(src[i]) || src[i] == '=') {
			i++
		}
		if i >= end {
			break
		}
		q := src[i]
		i++
		vs := i
		for i < end && src[i] != q {
			i++
		}
		a := rawAttr{valStart: vs, valEnd: i, value: decodeAttr(src[vs:i], ents)}
		a.prefix, a.local = splitQName(name)
		t.attrs = append(t.attrs, a)
		i++ // closing quote
	}
	t.selfClosing = end-start >= 2 && src[end-2] == '/'
	return t
}

func splitQName(q string) (prefix, local string) {
	if p, l, ok := strings.Cut(q, ":"); ok {
		return p, l
	}
	return "", q
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// decodeAttr resolves the five predefined entities and character references
// and applies XML attribute-value normalisation: CRLF, CR, LF and TAB written
// literally become one space each; characters written as references are kept.
func decodeAttr(raw []byte, ents map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '&':
			j := i + 1
			for j < len(raw) && raw[j] != ';' {
				j++
			}
			b.WriteString(decodeEntity(string(raw[i+1:min(j, len(raw))]), ents))
			i = j + 1
		case c == '\r':
			b.WriteByte(' ')
			i++
			if i < len(raw) && raw[i] == '\n' {
				i++
			}
		case c == '\n' || c == '\t':
			b.WriteByte(' ')
			i++
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// decodeEntity maps the name between '&' and ';' to its text (ents holds
// the expanded internal DTD entities). encoding/xml has already rejected
// anything else, so unknown names are kept as written.
func decodeEntity(name string, ents map[string]string) string {
	if t, ok := ents[name]; ok {
		return t
	}
	switch name {
	case "lt":
		return "<"
	case "gt":
		return ">"
	case "amp":
		return "&"
	case "apos":
		return "'"
	case "quot":
		return `"`
	}
	if strings.HasPrefix(name, "#") {
		var n uint64
		var err error
		if strings.HasPrefix(name, "#x") {
			n, err = strconv.ParseUint(name[2:], 16, 32)
		} else {
			n, err = strconv.ParseUint(name[1:], 10, 32)
		}
		// n < 2^32 (ParseUint bitSize 32); values past int32 wrap negative and fail ValidRune.
		if err == nil && utf8.ValidRune(rune(n)) { //nolint:gosec // G115: bounded above
			return string(rune(n)) //nolint:gosec // G115: a valid rune, checked above
		}
	}
	return "&" + name + ";"
}
