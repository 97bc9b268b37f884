package hadoopxml

import (
	"bytes"
	"errors"
	"io/fs"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// maxIncludeDepth bounds xi:include nesting below the file given to Parse.
// Hadoop has no limit (a cycle overflows its stack); ckptlint stops here.
const maxIncludeDepth = 10

// startInclude is Hadoop's handleInclude: the href attribute (matched by
// local name, in any namespace) is read and its properties are inlined at
// this point. A missing target arms <xi:fallback>; the end of the include
// element then fails unless a fallback was entered.
func (fp *fileParser) startInclude(t tok) *parsed.ParseError {
	fp.include = nil
	for _, a := range t.tag.attrs {
		if a.local == "href" && a.prefix != "xmlns" {
			v := a.value
			fp.include = &v
		}
	}
	if fp.include == nil {
		return nil
	}
	fp.includeAt = t.start
	p := fp.p
	where := fp.sp(t.start, t.end)
	target, ok := resolveHref(p.top, *fp.include)
	if !ok {
		fp.notice(NoticeIncludeNotFollowed, where, "", "xi:include of %q not followed: only local files are read", *fp.include)
		return nil
	}
	if p.opts.ReadFile == nil {
		fp.notice(NoticeIncludeNotFollowed, where, "", "xi:include of %q not followed: file access is off", target)
		return nil
	}
	if slices.Contains(p.stack, target) {
		return fp.sc.errKind(parsed.ErrInclude, t.start, "xi:include cycle: %s", strings.Join(append(slices.Clone(p.stack), target), " -> "))
	}
	if len(p.stack) > maxIncludeDepth {
		return fp.sc.errKind(parsed.ErrLimit, t.start, "xi:include of %q nested deeper than %d levels", target, maxIncludeDepth)
	}
	data, err := p.opts.ReadFile(target)
	if errors.Is(err, ErrNotFollowed) {
		// The caller refused the target (outside the repository, not a
		// regular file): report the href and why, never its content.
		fp.notice(NoticeIncludeNotFollowed, where, "", "xi:include of %q not followed: %v", *fp.include, err)
		return nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		fp.fallbackAllowed = true // "Resource errors are non-fatal iff there is 1 xi:fallback"
		return nil
	}
	if err != nil {
		return fp.sc.errKind(parsed.ErrInclude, t.start, "read xi:include %q: %v", target, err)
	}
	p.includes = append(p.includes, target)
	p.stack = append(p.stack, target)
	defer func() { p.stack = p.stack[:len(p.stack)-1] }()
	return p.parseFile(target, data, false)
}

// resolveHref maps an href to a slash-separated path. Relative hrefs are
// joined to the directory of the top-level file: Hadoop passes the including
// resource's name down to nested includes, so every relative href in an
// include chain resolves against the directory of the file first loaded.
// file: URLs give their path; ok is false for other URLs (http:, jar:, ...).
func resolveHref(top, href string) (string, bool) {
	if scheme, ok := urlScheme(href); ok {
		if !strings.EqualFold(scheme, "file") {
			return "", false
		}
		u, err := url.Parse(href)
		if err != nil {
			return "", false
		}
		href = u.Path
		if href == "" {
			href = u.Opaque
		}
		if href == "" {
			return "", false
		}
	}
	if path.IsAbs(href) {
		return path.Clean(href), true
	}
	return path.Join(path.Dir(top), href), true
}

// urlScheme returns the scheme of an absolute URL; single letters are taken
// as Windows drive letters, not schemes.
func urlScheme(s string) (string, bool) {
	i := strings.IndexByte(s, ':')
	if i < 2 {
		return "", false
	}
	for j, c := range s[:i] {
		alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !alpha && (j == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return "", false
		}
	}
	return s[:i], true
}

// ParsesAlone reports whether Parse reads src as it is and nothing else:
// the file needs no decoding (Parse keeps src as the File's Src; a UTF-16
// file keeps its decoded text there instead), and its text does not spell
// "include" (an element's name cannot come from a character reference,
// and the entities ckptlint expands are declared in the file itself). A
// streaming run defers the parse of such a file to the first config set
// that reads it (internal/discover).
func ParsesAlone(src []byte) bool {
	text, tr, perr := decodeXML("", src)
	return perr == nil && tr == nil && !bytes.Contains(text, []byte("include"))
}
