package dockerfile

import (
	"net/url"
	"path"
	"strings"

	"github.com/moby/buildkit/frontend/dockerfile/parser"

	"github.com/ckptlint/ckptlint/internal/deploy"
	dshell "github.com/ckptlint/ckptlint/internal/deploy/shell"
)

// copyAdd reads COPY and ADD (Dockerfile reference): every source but the
// last word into the last, the destination; a destination ending in '/'
// (or several sources) is a directory the sources go into. A source is a
// path of the build context ("The <src> path must be inside the build
// context", Dockerfile reference: ../ never leaves it here), a heredoc (COPY <<EOF dest: a Text), with ADD a URL (a
// download) or a local tar archive (unpacked: version evidence only).
// --from copies out of another stage (mapped through it) or an image (not
// read); --chown, --chmod, --link do not change what is where.
func (b *builder) copyAdd(n *parser.Node, cmd string) {
	ws := words(n)
	if len(ws) < 2 {
		return
	}
	dest := b.expand(ws[len(ws)-1], b.cur.env)
	if dest == "." || dest == ".." || strings.HasSuffix(dest, "/.") {
		dest += "/" // the working directory: a directory
	}
	dest = b.abs(dest)
	srcs := ws[:len(ws)-1]
	intoDir := strings.HasSuffix(dest, "/") || len(srcs) > 1
	from, hasFrom := flag(n, "from")
	heredocs := map[string]parser.Heredoc{}
	for _, h := range n.Heredocs {
		heredocs[h.Name] = h
	}
	for _, raw := range srcs {
		if h := parser.MustParseHeredoc(raw); h != nil && !n.Attributes["json"] {
			b.copyHeredoc(n, heredocs[h.Name], dest, intoDir)
			continue
		}
		src := b.expand(raw, b.cur.env)
		to := dest
		if intoDir {
			to = path.Join(dest, path.Base(src))
		}
		b.addVersions(deploy.Tarballs(src, b.loc(n))...)
		switch {
		case hasFrom:
			if i := b.stageNamed(b.expand(from, b.cur.env)); i >= 0 {
				b.cur.from = appendCapped(b.cur.from, stageCopy{stage: i, src: src, dest: dest, loc: b.loc(n)})
			}
			b.placed(deploy.Copy{Src: src, Dest: to, Loc: b.loc(n)})
		case cmd == "add" && isURL(src):
			if intoDir {
				to = path.Join(dest, urlBase(src))
			}
			b.placed(deploy.Copy{Src: src, Dest: to, Loc: b.loc(n)})
		case cmd == "add" && isArchive(src):
			// unpacked into dest: its files are the archive's, not the repository's
		default:
			c := deploy.Copy{Src: b.contextPath(src), Dest: dest, Loc: b.loc(n)}
			b.cur.Copies = appendCapped(b.cur.Copies, c)
			b.placed(deploy.Copy{Src: c.Src, Dest: to, Loc: c.Loc})
		}
	}
}

// contextPath is a source of COPY or ADD as a repository display path:
// inside the build context, whatever ../ it holds.
func (b *builder) contextPath(src string) string {
	rel := strings.TrimPrefix(path.Clean("/"+src), "/")
	if rel == "" {
		return path.Clean(b.context)
	}
	return path.Join(b.context, rel)
}

// placed records a file put at a path of the image: a jar in Flink's
// lib/ or plugins/ is one of the image's Jars, with the Hadoop version its
// name states.
func (b *builder) placed(c deploy.Copy) {
	if !b.cur.inFlinkDirs(c.Dest) {
		return
	}
	b.cur.Jars = appendCapped(b.cur.Jars, c)
	if v, ok := deploy.JarVersion(c.Dest, c.Loc); ok {
		b.addVersions(v)
	}
}

func isURL(s string) bool { return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") }

func urlBase(s string) string {
	if u, err := url.Parse(s); err == nil {
		return path.Base(u.Path)
	}
	return path.Base(s)
}

// isArchive: ADD unpacks a local tar archive (identity, gzip, bzip2 or xz
// compressed) into the destination.
func isArchive(s string) bool {
	l := strings.ToLower(s)
	for _, e := range []string{".tar", ".tgz", ".tar.gz", ".tbz2", ".tar.bz2", ".txz", ".tar.xz"} {
		if strings.HasSuffix(l, e) {
			return true
		}
	}
	return false
}

// copyHeredoc reads COPY <<EOF dest: a file of the image whose content is
// written in the Dockerfile. BuildKit expands variables in an unquoted
// heredoc's content (SourcesAndDest.ExpandRaw, with backslash escapes) and
// strips leading tabs with <<- (parser.ChompHeredocContent): the Text is
// Exact when the content lines lie in the Dockerfile as the image gets
// them.
func (b *builder) copyHeredoc(n *parser.Node, h parser.Heredoc, dest string, intoDir bool) {
	to := dest
	if intoDir {
		to = path.Join(dest, h.Name)
	}
	name := path.Base(to)
	if !isConfigName(name) {
		return
	}
	t := b.heredocText(n, h)
	t.Name, t.Path, t.Container = name, to, b.file
	b.cur.Texts = appendCapped(b.cur.Texts, t)
}

func isConfigName(name string) bool {
	return name == "flink-conf.yaml" || name == "config.yaml" || strings.HasSuffix(name, "-site.xml")
}

// heredocText is the Text of a heredoc of instruction n.
func (b *builder) heredocText(n *parser.Node, h parser.Heredoc) *deploy.Text {
	start, ok := b.heredocStart(n, h)
	content := h.Content
	exact := ok && !(h.Expand && strings.Contains(content, `\`))
	indent := ""
	if h.Chomp {
		var same bool
		indent, same = commonTabs(content)
		exact = exact && same
		content = parser.ChompHeredocContent(content)
	}
	if exact {
		t := dshell.Exact(b.src, start, start+len(h.Content), indent)
		t.Loc.File = b.file
		return t
	}
	return &deploy.Text{Loc: b.loc(n), Src: []byte(content)}
}

// heredocStart is the offset in the Dockerfile of the content of heredoc
// h of instruction n: BuildKit reads the heredocs of an instruction one
// after the other from the line after it, each up to its terminator line,
// and n ends on the last terminator (EndLine); walking back from there,
// each heredoc's content ends on the line before its terminator. ok is
// false when the bytes there are not the content (a byte-order mark, an
// unexpected layout).
func (b *builder) heredocStart(n *parser.Node, h parser.Heredoc) (int, bool) {
	end := n.EndLine // 1-based line of the last terminator
	for i := len(n.Heredocs) - 1; i >= 0; i-- {
		hd := n.Heredocs[i]
		lines := strings.Count(hd.Content, "\n")
		first := end - lines // first content line, 1-based
		if first < 1 || end > len(b.lines) {
			return 0, false
		}
		if hd.Name == h.Name && hd.Content == h.Content {
			start := b.lines[first-1]
			if start+len(hd.Content) > len(b.src) || string(b.src[start:start+len(hd.Content)]) != hd.Content {
				return 0, false
			}
			return start, true
		}
		end = first - 1
	}
	return 0, false
}

// commonTabs is the run of leading tabs every non-empty line carries, and
// whether they all carry the same.
func commonTabs(s string) (string, bool) {
	n, same := -1, true
	for _, line := range strings.SplitAfter(s, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		t := len(line) - len(strings.TrimLeft(line, "\t"))
		if n >= 0 && t != n {
			same = false
		}
		if n < 0 {
			n = t
		}
	}
	return strings.Repeat("\t", max(n, 0)), same
}

// run reads a RUN instruction's shell form with internal/deploy/shell:
// the files it writes, downloads and copies, and the versions it names,
// with the stage's ARG and ENV known. As BuildKit runs it
// (dockerfile2llb dispatchRun): `RUN <<EOF` runs the heredoc's content as
// the script; any other heredocs follow the command line, each with its
// terminator. The exec (JSON) form runs no shell and is not read.
func (b *builder) run(n *parser.Node) {
	if n.Attributes["json"] || n.Next == nil {
		return
	}
	script, segs := b.runScript(n)
	o := dshell.Options{Env: b.cur.env, Dir: b.cur.workdir, Line: n.StartLine, Container: b.src, Segments: segs}
	res := dshell.ReadWith(b.file, []byte(script), o)
	b.addVersions(res.Versions...)
	for _, t := range res.Texts {
		t.Container = b.file
		b.cur.Texts = appendCapped(b.cur.Texts, t)
	}
	for _, c := range res.Files {
		b.placed(c)
	}
	for _, note := range res.Notes {
		if len(b.f.Notes) < maxFacts {
			b.f.Notes = append(b.f.Notes, note)
		}
	}
}

// runScript is the script a RUN gives the shell, and where its heredoc
// contents lie in the Dockerfile.
func (b *builder) runScript(n *parser.Node) (string, []dshell.Segment) {
	cmd := n.Next.Value
	if len(n.Heredocs) == 0 {
		return cmd, nil
	}
	if h := parser.MustParseHeredoc(strings.TrimSpace(cmd)); h != nil {
		doc := n.Heredocs[0]
		if doc.Chomp {
			return parser.ChompHeredocContent(doc.Content), nil
		}
		var segs []dshell.Segment
		if start, ok := b.heredocStart(n, doc); ok {
			segs = []dshell.Segment{{Script: 0, Container: start, Len: len(doc.Content)}}
		}
		return doc.Content, segs
	}
	var sb strings.Builder
	var segs []dshell.Segment
	sb.WriteString(cmd)
	for _, h := range n.Heredocs {
		sb.WriteByte('\n')
		if start, ok := b.heredocStart(n, h); ok {
			segs = append(segs, dshell.Segment{Script: sb.Len(), Container: start, Len: len(h.Content)})
		}
		sb.WriteString(h.Content)
		sb.WriteString(h.Name)
	}
	return sb.String(), segs
}
