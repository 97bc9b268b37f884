package hadoopxml

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits on DTD entity expansion: the JDK 24+ secure-processing defaults
// (src/java.xml/share/conf/jaxp.properties after JDK-8343004 "Adjust JAXP
// limits", CSR JDK-8343006, openjdk/jdk commit 28c8729). JDK 24 lowered
// jdk.xml.entityExpansionLimit from 64,000 to 2,500,
// jdk.xml.maxGeneralEntitySizeLimit from unlimited to 100,000 and
// jdk.xml.totalEntitySizeLimit from 50,000,000 to 100,000; JDK 17 and 21
// keep 64,000 / unlimited / 50,000,000 (Oracle's JAXP "Processing Limit
// Definitions"). Hadoop does not use these: since HADOOP-14216 its
// Configuration parses with Woodstox (WstxInputFactory), whose
// com.ctc.wstx.api.ReaderConfig defaults allow 100,000 entity expansions
// nested 500 deep. ckptlint is stricter than Hadoop on purpose; a
// configuration file needs none of it, and more is refused with an error
// naming the file and line, never misread.
const (
	// maxEntityExpansions bounds how many entity references one file may
	// expand, nested ones included (jdk.xml.entityExpansionLimit, JDK 24+;
	// 64,000 on earlier JDKs, 100,000 in Hadoop's Woodstox reader).
	maxEntityExpansions = 2500
	// maxEntitySize is jdk.xml.maxGeneralEntitySizeLimit (JDK 24+): the
	// largest replacement text of one general entity, in bytes.
	maxEntitySize = 100000
	// maxTotalEntitySize is jdk.xml.totalEntitySizeLimit (JDK 24+): the
	// bytes all expansions of one file may produce together.
	maxTotalEntitySize = 100000
	// maxEntityDepth bounds nesting of entity references inside entity
	// values (a cycle is refused earlier).
	maxEntityDepth = 20
)

// externalMark and externalEnd enclose the name of an external entity in
// place of its text, which ckptlint never reads: U+FDD0 and U+FDD1 are
// noncharacters that cannot come from the file itself.
const (
	externalMark = "\uFDD0" // followed by the entity name
	externalEnd  = "\uFDD1"
)

// entityDecl is one <!ENTITY name ...> of the internal subset.
type entityDecl struct {
	name     string
	value    string // literal value as written (internal entities)
	external string // SYSTEM literal (external entities); "" for internal
	param    bool   // a parameter entity (<!ENTITY % name ...>)
	off      int    // offset of "<!ENTITY" in the file
}

// dtd holds the general entities of a file's DOCTYPE internal subset.
type dtd struct {
	decls      map[string]*entityDecl
	params     map[string]*entityDecl // parameter entities, never expanded
	paramRefs  []string               // parameter entity references, in order
	expansions int
	total      int
}

// parseDoctype reads the internal subset of a <!DOCTYPE ...> directive
// (text is the directive without "<!" and ">", starting at file offset
// off). It keeps general entity declarations and refuses parameter
// entities, which ckptlint does not expand.
func parseDoctype(text string, off int) (*dtd, int, string) {
	d := &dtd{decls: map[string]*entityDecl{}, params: map[string]*entityDecl{}}
	open := strings.IndexByte(text, '[')
	if open < 0 {
		return d, 0, ""
	}
	i := open + 1
	for i < len(text) {
		switch {
		case text[i] == ']':
			return d, 0, ""
		case strings.HasPrefix(text[i:], "<!--"):
			end := strings.Index(text[i+4:], "-->")
			if end < 0 {
				return nil, off + i, "unterminated comment in the DOCTYPE"
			}
			i += 4 + end + 3
		case strings.HasPrefix(text[i:], "<!ENTITY"):
			decl, n, err := parseEntityDecl(text[i:])
			if err != "" {
				return nil, off + i, err
			}
			decl.off = off + i
			decls := d.decls
			if decl.param {
				decls = d.params
			}
			if _, dup := decls[decl.name]; !dup && decl.name != "" { // the first declaration binds (XML 1.0 §4.2)
				decls[decl.name] = decl
			}
			i += n
		case text[i] == '%':
			// a parameter entity reference between declarations: never
			// expanded (an external one is never fetched); noted
			end := strings.IndexByte(text[i:], ';')
			if end < 0 {
				return nil, off + i, "parameter entity reference without ';' in the DOCTYPE"
			}
			d.paramRefs = append(d.paramRefs, text[i+1:i+end])
			i += end + 1
		case text[i] == '<':
			n, err := skipMarkupDecl(text[i:])
			if err != "" {
				return nil, off + i, err
			}
			i += n
		default:
			i++
		}
	}
	return d, off + len(text), "unterminated internal subset in the DOCTYPE"
}

// skipMarkupDecl skips <!ELEMENT ...>, <!ATTLIST ...>, <!NOTATION ...> or
// <?pi?>, honouring quotes.
func skipMarkupDecl(s string) (int, string) {
	if strings.HasPrefix(s, "<?") {
		end := strings.Index(s, "?>")
		if end < 0 {
			return 0, "unterminated processing instruction in the DOCTYPE"
		}
		return end + 2, ""
	}
	var q byte
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '>':
			return i + 1, ""
		}
	}
	return 0, "unterminated markup declaration in the DOCTYPE"
}

// parseEntityDecl reads one <!ENTITY ...> at the start of s.
func parseEntityDecl(s string) (*entityDecl, int, string) {
	i := len("<!ENTITY")
	skip := func() {
		for i < len(s) && isXMLSpace(s[i]) {
			i++
		}
	}
	word := func() string {
		j := i
		for i < len(s) && !isXMLSpace(s[i]) && s[i] != '>' && s[i] != '"' && s[i] != '\'' {
			i++
		}
		return s[j:i]
	}
	quoted := func() (string, bool) {
		if i >= len(s) || (s[i] != '"' && s[i] != '\'') {
			return "", false
		}
		q := s[i]
		end := strings.IndexByte(s[i+1:], q)
		if end < 0 {
			return "", false
		}
		v := s[i+1 : i+1+end]
		i += end + 2
		return v, true
	}
	skip()
	param := false
	if i < len(s) && s[i] == '%' {
		param = true
		i++
		skip()
	}
	d := &entityDecl{name: word(), param: param}
	if d.name == "" {
		return nil, 0, "entity declaration without a name"
	}
	skip()
	switch kw := word(); kw {
	case "":
		v, ok := quoted()
		if !ok {
			return nil, 0, fmt.Sprintf("entity %q: expected a quoted value", d.name)
		}
		if strings.Contains(v, "%") {
			return nil, 0, fmt.Sprintf("entity %q refers to a parameter entity: ckptlint does not expand parameter entities", d.name)
		}
		d.value = v
	case "SYSTEM", "PUBLIC":
		skip()
		lit, ok := quoted()
		if !ok {
			return nil, 0, fmt.Sprintf("entity %q: expected a quoted %s identifier", d.name, kw)
		}
		if kw == "PUBLIC" {
			skip()
			if lit, ok = quoted(); !ok {
				return nil, 0, fmt.Sprintf("entity %q: expected a quoted system identifier after the public one", d.name)
			}
		}
		d.external = lit
		if d.external == "" {
			d.external = "(empty system identifier)"
		}
		skip()
		if strings.HasPrefix(s[i:], "NDATA") {
			i += len("NDATA")
			skip()
			word()
		}
	default:
		return nil, 0, fmt.Sprintf("entity %q: unexpected %q", d.name, kw)
	}
	skip()
	if i >= len(s) || s[i] != '>' {
		return nil, 0, fmt.Sprintf("entity %q: expected '>'", d.name)
	}
	return d, i + 1, ""
}

// expand returns the text a reference to name stands for, applying the
// limits. External entities expand to externalMark.
func (d *dtd) expand(name string, depth int, stack []string) (string, error) {
	decl, ok := d.decls[name]
	if !ok {
		return "", fmt.Errorf("undeclared entity &%s;", name)
	}
	d.expansions++
	if d.expansions > maxEntityExpansions {
		return "", fmt.Errorf("more than %d entity expansions (the JDK 24+ default of jdk.xml.entityExpansionLimit); refusing a possible entity-expansion bomb", maxEntityExpansions)
	}
	if decl.external != "" {
		return externalMark + name + externalEnd, nil
	}
	if depth > maxEntityDepth {
		return "", fmt.Errorf("entity &%s; nests more than %d levels", name, maxEntityDepth)
	}
	for _, s := range stack {
		if s == name {
			return "", fmt.Errorf("entity &%s; refers to itself", name)
		}
	}
	var b strings.Builder
	v := decl.value
	for i := 0; i < len(v); {
		c := v[i]
		switch {
		case c == '<':
			return "", fmt.Errorf("entity &%s; contains markup ('<'); ckptlint expands only entities that stand for text", name)
		case c == '&':
			end := strings.IndexByte(v[i:], ';')
			if end < 0 {
				return "", fmt.Errorf("entity &%s;: '&' without ';'", name)
			}
			ref := v[i+1 : i+end]
			i += end + 1
			if strings.HasPrefix(ref, "#") {
				r, ok := charRef(ref[1:])
				if !ok || r == '<' {
					return "", fmt.Errorf("entity &%s;: invalid character reference &%s;", name, ref)
				}
				b.WriteRune(r)
				continue
			}
			if t, ok := predefined[ref]; ok {
				b.WriteString(t)
				continue
			}
			t, err := d.expand(ref, depth+1, append(stack, name))
			if err != nil {
				return "", err
			}
			b.WriteString(t)
		default:
			b.WriteByte(c)
			i++
		}
		if b.Len() > maxEntitySize {
			return "", fmt.Errorf("entity &%s; expands to more than %d bytes (the JDK's jdk.xml.maxGeneralEntitySizeLimit)", name, maxEntitySize)
		}
	}
	if depth == 0 {
		d.total += b.Len()
		if d.total > maxTotalEntitySize {
			return "", fmt.Errorf("entity expansions total more than %d bytes (the JDK's jdk.xml.totalEntitySizeLimit); refusing a possible entity-expansion bomb", maxTotalEntitySize)
		}
	}
	return b.String(), nil
}

var predefined = map[string]string{"lt": "<", "gt": ">", "amp": "&", "apos": "'", "quot": `"`}

func charRef(s string) (rune, bool) {
	var n uint64
	var err error
	if strings.HasPrefix(s, "x") {
		n, err = strconv.ParseUint(s[1:], 16, 32)
	} else {
		n, err = strconv.ParseUint(s, 10, 32)
	}
	if err != nil || n > utf8.MaxRune || !utf8.ValidRune(rune(n)) {
		return 0, false
	}
	return rune(n), true
}
