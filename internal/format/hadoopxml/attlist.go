package hadoopxml

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Attribute defaults of the internal DTD subset. Hadoop's Configuration
// parses with DTD support on (Hadoop 3.4.1 Configuration.parse L3064-3080;
// only a restricted resource turns it off) and reads the attributes StAX
// reports for <property> and <xi:include> (handleStartProperty L3267-3292,
// handleInclude L3294-3305), defaulted ones included. Woodstox 5.4.0, the
// version hadoop-project/pom.xml of 3.4.1 names, is DTD-aware without
// validating: ValidatingStreamReader.finishDTD installs a
// DTDTypingNonValidator "to get type info and to add attribute default
// values"; its validateElementAndAttributes adds every attribute the start
// tag lacks that has a default (a plain default or #FIXED, not #REQUIRED
// or #IMPLIED), and validateAttribute normalises the value of an attribute
// whose type is not CDATA (XML 1.0 §3.3.3: leading and trailing spaces
// dropped, runs of spaces collapsed). FullDTDReader.handleAttrDecl
// normalises defaults the same way and keeps the first declaration of an
// attribute (XML 1.0 §3.3). Elements and attributes are matched by their
// names as written (Woodstox PrefixedName: prefix and local name).
// Defaults of xmlns attributes (namespace declarations) are not applied:
// ckptlint checks prefixes before it reads the DTD's defaults.

// attDef is one attribute definition of an <!ATTLIST ...>.
type attDef struct {
	elem, attr string // qualified names as written
	cdata      bool   // of type CDATA: no normalisation beyond white space
	hasDefault bool   // a plain or #FIXED default (not #REQUIRED or #IMPLIED)
	raw        string // the default's literal as written
	off        int    // file offset of the declaration
	// value is the default with references expanded and normalised; set
	// by the first use (defaultValue).
	value    string
	resolved bool
}

// addAttDef records a, unless the element already has a definition of the
// attribute: the first one binds (XML 1.0 §3.3).
func (d *dtd) addAttDef(a *attDef) {
	if slices.ContainsFunc(d.attlists[a.elem], func(b *attDef) bool { return b.attr == a.attr }) {
		return
	}
	d.attlists[a.elem] = append(d.attlists[a.elem], a)
}

// parseAttlist reads one <!ATTLIST element (attr type default)*> at the
// start of s (XML 1.0 §3.3: AttlistDecl, AttDef, AttType, DefaultDecl).
func parseAttlist(s string) ([]*attDef, int, string) {
	i := len("<!ATTLIST")
	ws := func() bool {
		j := i
		for i < len(s) && isXMLSpace(s[i]) {
			i++
		}
		return i > j
	}
	name := func() string {
		j := i
		for i < len(s) && !isXMLSpace(s[i]) && !strings.ContainsRune(">\"'()|%#", rune(s[i])) {
			i++
		}
		return s[j:i]
	}
	fail := func(format string, args ...any) ([]*attDef, int, string) {
		return nil, 0, "<!ATTLIST: " + fmt.Sprintf(format, args...)
	}
	pe := func() bool { return i < len(s) && s[i] == '%' }
	peMsg := "a parameter entity reference inside a declaration of the internal subset is not well-formed (XML 1.0 §2.8 \"PEs in Internal Subset\")"
	ws()
	elem := name()
	if elem == "" {
		return fail("expected an element name")
	}
	var defs []*attDef
	for {
		sp := ws()
		if pe() {
			return fail("%s", peMsg)
		}
		if i >= len(s) {
			return fail("unterminated declaration of <%s>", elem)
		}
		if s[i] == '>' {
			return defs, i + 1, ""
		}
		if !sp {
			return fail("expected white space before the next attribute of <%s>", elem)
		}
		a := &attDef{elem: elem, attr: name()}
		if a.attr == "" {
			return fail("expected an attribute name in the declaration of <%s>", elem)
		}
		if !ws() || pe() {
			if pe() {
				return fail("%s", peMsg)
			}
			return fail("expected white space and a type after attribute %q of <%s>", a.attr, elem)
		}
		if s[i] == '(' {
			end := strings.IndexByte(s[i:], ')')
			if end < 0 {
				return fail("unterminated enumeration of attribute %q", a.attr)
			}
			i += end + 1
		} else {
			switch typ := name(); typ {
			case "CDATA":
				a.cdata = true
			case "ID", "IDREF", "IDREFS", "ENTITY", "ENTITIES", "NMTOKEN", "NMTOKENS":
			case "NOTATION":
				ws()
				end := -1
				if i < len(s) && s[i] == '(' {
					end = strings.IndexByte(s[i:], ')')
				}
				if end < 0 {
					return fail("expected the notations of attribute %q in parentheses", a.attr)
				}
				i += end + 1
			default:
				return fail("attribute %q of <%s> has the unknown type %q", a.attr, elem, typ)
			}
		}
		if !ws() || pe() {
			if pe() {
				return fail("%s", peMsg)
			}
			return fail("expected white space and a default declaration after the type of attribute %q", a.attr)
		}
		if s[i] == '#' {
			i++
			switch kw := name(); kw {
			case "REQUIRED", "IMPLIED":
				defs = append(defs, a)
				continue
			case "FIXED":
				if !ws() {
					return fail("expected white space and a value after #FIXED of attribute %q", a.attr)
				}
			default:
				return fail("unknown default declaration #%s of attribute %q", kw, a.attr)
			}
		}
		if i >= len(s) || (s[i] != '"' && s[i] != '\'') {
			return fail("expected a quoted default value, #REQUIRED, #IMPLIED or #FIXED for attribute %q", a.attr)
		}
		end := strings.IndexByte(s[i+1:], s[i])
		if end < 0 {
			return fail("unterminated default value of attribute %q", a.attr)
		}
		a.raw, a.hasDefault = s[i+1:i+1+end], true
		if strings.ContainsRune(a.raw, '<') {
			return fail("the default value of attribute %q contains '<', which an attribute value cannot hold (XML 1.0 §3.1)", a.attr)
		}
		i += end + 2
		defs = append(defs, a)
	}
}

// normalizeTokens is the normalisation of an attribute value whose type is
// not CDATA (XML 1.0 §3.3.3): spaces trimmed, runs collapsed to one.
func normalizeTokens(v string) string {
	return strings.Join(strings.FieldsFunc(v, func(r rune) bool { return r == ' ' }), " ")
}

// defaultValue is the value a's default stands for: references expanded
// (ents, the file's internal entities), white space normalised, once per
// declaration; its entity expansions count against the file's limits.
func (d *dtd) defaultValue(a *attDef, ents map[string]string) (string, string) {
	if a.resolved {
		return a.value, ""
	}
	raw := a.raw
	for i := 0; i < len(raw); i++ {
		if raw[i] != '&' {
			continue
		}
		j := strings.IndexByte(raw[i:], ';')
		if j < 0 {
			return "", fmt.Sprintf("the default value of attribute %q: '&' without ';'", a.attr)
		}
		name := raw[i+1 : i+j]
		if v, ok := ents[name]; ok {
			if strings.Contains(v, externalMark) {
				return "", fmt.Sprintf("the default value of attribute %q refers to the external entity &%s;, which an attribute value cannot (XML 1.0 §3.1, \"No External Entity References\")", a.attr, name)
			}
			d.expansions++
			d.total += len(v)
			if d.expansions > maxEntityExpansions || d.total > maxTotalEntitySize {
				return "", fmt.Sprintf("the default value of attribute %q: more entity expansions than the JDK's limits allow; refusing a possible entity-expansion bomb", a.attr)
			}
		} else if _, pre := predefined[name]; !pre && !strings.HasPrefix(name, "#") {
			return "", fmt.Sprintf("the default value of attribute %q refers to the undeclared entity &%s;", a.attr, name)
		}
	}
	v := decodeAttr([]byte(raw), ents)
	if !a.cdata {
		v = normalizeTokens(v)
	}
	a.value, a.resolved = v, true
	return v, ""
}

// applyAttDefaults adds to the start tag t the attributes its DTD defaults
// and normalises those of a type other than CDATA, as Woodstox reports them
// to Hadoop.
func (fp *fileParser) applyAttDefaults(t *tok) *parsed.ParseError {
	d := fp.sc.dtd
	defs := d.attlists[qname(t.tag.prefix, t.local)]
	if len(defs) == 0 {
		return nil
	}
	attrs := slices.Clone(t.tag.attrs)
	for _, a := range defs {
		i := slices.IndexFunc(attrs, func(r rawAttr) bool { return qname(r.prefix, r.local) == a.attr })
		switch {
		case i >= 0:
			if !a.cdata {
				attrs[i].value = normalizeTokens(attrs[i].value)
			}
		case a.hasDefault:
			prefix, local := splitQName(a.attr)
			if prefix == "xmlns" || prefix == "" && local == "xmlns" {
				continue
			}
			v, msg := d.defaultValue(a, fp.sc.ents)
			if msg != "" {
				return fp.sc.errAt(a.off, "%s", msg)
			}
			attrs = append(attrs, rawAttr{prefix: prefix, local: local, value: v, defaulted: true})
		}
	}
	t.tag.attrs = attrs
	return nil
}

// attDefaultNotices notes each default the DTD gives an attribute Hadoop
// reads (<property> name, value, final, source, tag; <include> href).
func (fp *fileParser) attDefaultNotices() {
	d := fp.sc.dtd
	if d == nil {
		return
	}
	var all []*attDef
	for _, defs := range d.attlists {
		all = append(all, defs...)
	}
	slices.SortFunc(all, func(a, b *attDef) int { return a.off - b.off })
	for _, a := range all {
		_, elem := splitQName(a.elem)
		_, attr := splitQName(a.attr)
		read := elem == "property" && slices.Contains([]string{"name", "value", "final", "source", "tag"}, attr) ||
			elem == "include" && attr == "href"
		if !a.hasDefault || !read {
			continue
		}
		fp.notice(NoticeDTDDefault, fp.sp(a.off, a.off+len("<!ATTLIST")), "",
			"the DOCTYPE gives <%s> the default %s=%q (<!ATTLIST>): Hadoop's parser adds it to every <%s> that does not set %s itself",
			a.elem, a.attr, a.raw, a.elem, a.attr)
	}
}
