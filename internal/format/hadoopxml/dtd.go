package hadoopxml

import (
	"fmt"
	"slices"
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

// dtd holds the entities and attribute-list declarations of a file's
// DOCTYPE internal subset.
type dtd struct {
	decls      map[string]*entityDecl
	params     map[string]*entityDecl // parameter entities
	attlists   map[string][]*attDef   // element name as written -> its attributes, first declaration first
	paramRefs  []string               // references to parameter entities not expanded (external or undeclared), described
	expansions int
	total      int
}

// parseDoctype reads the internal subset of a <!DOCTYPE ...> directive
// (text is the directive without "<!" and ">", starting at file offset
// off). It keeps general and parameter entity declarations and expands
// references to internal parameter entities between declarations, as
// Hadoop's Woodstox reader does (XML 1.0 §4.4.8 "Included as PE"), so the
// declarations they hold take effect; external parameter entities are never
// fetched (noted in paramRefs).
func parseDoctype(text string, off int) (*dtd, int, string) {
	d := &dtd{decls: map[string]*entityDecl{}, params: map[string]*entityDecl{}, attlists: map[string][]*attDef{}}
	open := strings.IndexByte(text, '[')
	if open < 0 {
		return d, 0, ""
	}
	closed, errOff, msg := d.subset(text[open+1:], off+open+1, -1, nil)
	if msg != "" {
		return nil, errOff, msg
	}
	if !closed {
		return nil, off + len(text), "unterminated internal subset in the DOCTYPE"
	}
	return d, 0, ""
}

// subset reads markup declarations from text. At the top level (at < 0)
// text starts at file offset base and ends with ']'; inside the replacement
// text of parameter entity stack[len(stack)-1] every declaration and error
// is placed at file offset at, the outermost reference. It reports whether
// the closing ']' was seen.
func (d *dtd) subset(text string, base, at int, stack []string) (bool, int, string) {
	pos := func(i int) int {
		if at >= 0 {
			return at
		}
		return base + i
	}
	in := ""
	if len(stack) > 0 {
		in = fmt.Sprintf(" (in parameter entity %%%s;)", stack[len(stack)-1])
	}
	i := 0
	for i < len(text) {
		switch {
		case text[i] == ']':
			if at >= 0 {
				return false, pos(i), "unexpected ']'" + in
			}
			return true, 0, ""
		case strings.HasPrefix(text[i:], "<!--"):
			end := strings.Index(text[i+4:], "-->")
			if end < 0 {
				return false, pos(i), "unterminated comment in the DOCTYPE" + in
			}
			i += 4 + end + 3
		case strings.HasPrefix(text[i:], "<!ENTITY"):
			decl, n, err := parseEntityDecl(text[i:])
			if err != "" {
				return false, pos(i), err + in
			}
			decl.off = pos(i)
			decls := d.decls
			if decl.param {
				decls = d.params
			}
			if _, dup := decls[decl.name]; !dup && decl.name != "" { // the first declaration binds (XML 1.0 §4.2)
				decls[decl.name] = decl
			}
			i += n
		case strings.HasPrefix(text[i:], "<!ATTLIST"):
			defs, n, err := parseAttlist(text[i:])
			if err != "" {
				return false, pos(i), err + in
			}
			for _, a := range defs {
				a.off = pos(i)
				d.addAttDef(a)
			}
			i += n
		case text[i] == '%':
			end := strings.IndexByte(text[i:], ';')
			if end < 0 {
				return false, pos(i), "parameter entity reference without ';' in the DOCTYPE" + in
			}
			name := text[i+1 : i+end]
			if err := d.includePE(name, pos(i), stack); err != "" {
				return false, pos(i), err
			}
			i += end + 1
		case text[i] == '<':
			n, err := skipMarkupDecl(text[i:])
			if err != "" {
				return false, pos(i), err + in
			}
			i += n
		default:
			i++
		}
	}
	return false, 0, ""
}

// includePE handles a reference %name; between declarations (file offset
// at). An internal parameter entity declared before it is expanded and its
// replacement text read as declarations (XML 1.0 §4.4.8 "Included as PE";
// Woodstox, which Hadoop's Configuration parses with, does the same), within
// the same limits as general entities; recursion is refused. An external
// one is never fetched and an undeclared one is unknown: both are noted.
func (d *dtd) includePE(name string, at int, stack []string) string {
	pe := d.params[name]
	switch {
	case pe == nil:
		d.paramRefs = append(d.paramRefs, "%"+name+"; (undeclared)")
		return ""
	case pe.external != "":
		d.paramRefs = append(d.paramRefs, "%"+name+"; (Hadoop would read "+pe.external+")")
		return ""
	}
	if slices.Contains(stack, name) {
		return fmt.Sprintf("parameter entity %%%s; refers to itself", name)
	}
	if len(stack) >= maxEntityDepth {
		return fmt.Sprintf("parameter entity %%%s; nests more than %d levels", name, maxEntityDepth)
	}
	d.expansions++
	if d.expansions > maxEntityExpansions {
		return fmt.Sprintf("more than %d entity expansions (the JDK 24+ default of jdk.xml.entityExpansionLimit); refusing a possible entity-expansion bomb", maxEntityExpansions)
	}
	repl, err := peText(name, pe.value)
	if err != "" {
		return err
	}
	if len(repl) > maxEntitySize {
		return fmt.Sprintf("parameter entity %%%s; expands to more than %d bytes (the JDK's jdk.xml.maxGeneralEntitySizeLimit)", name, maxEntitySize)
	}
	d.total += len(repl)
	if d.total > maxTotalEntitySize {
		return fmt.Sprintf("entity expansions total more than %d bytes (the JDK's jdk.xml.totalEntitySizeLimit); refusing a possible entity-expansion bomb", maxTotalEntitySize)
	}
	_, _, msg := d.subset(repl, at, at, append(slices.Clip(stack), name))
	return msg
}

// peText is the replacement text of an internal parameter entity whose
// literal is v: character references are replaced, general entity
// references are bypassed (XML 1.0 §4.5; parameter entity references cannot
// occur in v, see parseEntityDecl).
func peText(name, v string) (string, string) {
	if !strings.Contains(v, "&#") {
		return v, ""
	}
	var b strings.Builder
	for i := 0; i < len(v); {
		if !strings.HasPrefix(v[i:], "&#") {
			b.WriteByte(v[i])
			i++
			continue
		}
		end := strings.IndexByte(v[i:], ';')
		if end < 0 {
			return "", fmt.Sprintf("parameter entity %%%s;: '&' without ';'", name)
		}
		r, ok := charRef(v[i+2 : i+end])
		if !ok {
			return "", fmt.Sprintf("parameter entity %%%s;: invalid character reference %s", name, v[i:i+end+1])
		}
		b.WriteRune(r)
		i += end + 1
	}
	return b.String(), ""
}

// skipMarkupDecl skips <!ELEMENT ...>, <!NOTATION ...> or
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
			// XML 1.0 WFC "PEs in Internal Subset": a parameter entity
			// reference may not occur within a markup declaration there
			return nil, 0, fmt.Sprintf("entity %q: '%%' in an entity value (a parameter entity reference inside a declaration of the internal subset is not well-formed, XML 1.0 §2.8; write &#37; for a literal '%%')", d.name)
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
