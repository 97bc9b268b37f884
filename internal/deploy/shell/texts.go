package shell

import (
	"bytes"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// isConfigName reports whether a file name is a configuration file
// ckptlint reads: Flink's flink-conf.yaml and config.yaml, Hadoop's
// *-site.xml.
func isConfigName(name string) bool {
	return name == "flink-conf.yaml" || name == "config.yaml" || strings.HasSuffix(name, "-site.xml")
}

// target is where a command's standard output is redirected to (> or >>,
// also &> and >|), with whether it appends.
func (r *reader) target(s *syntax.Stmt) (dest string, appendTo bool, ok bool) {
	for _, rd := range s.Redirs {
		if rd.N != nil && rd.N.Value != "1" {
			continue
		}
		switch rd.Op {
		case syntax.RdrOut, syntax.RdrClob, syntax.RdrAll:
			dest, _ = r.eval(rd.Word, true)
			appendTo, ok = false, true
		case syntax.AppOut, syntax.AppAll:
			dest, _ = r.eval(rd.Word, true)
			appendTo, ok = true, true
		}
	}
	return dest, appendTo, ok
}

// heredoc is the here-document a statement reads, nil when none.
func heredoc(s *syntax.Stmt) *syntax.Redirect {
	for _, rd := range s.Redirs {
		if (rd.Op == syntax.Hdoc || rd.Op == syntax.DashHdoc) && rd.Hdoc != nil {
			return rd
		}
	}
	return nil
}

// write reads cat, tee, echo and printf that write a configuration file:
// `cat > f <<EOF`, `cat <<EOF > f`, `tee [-a] f <<EOF`, `echo … > f`,
// `printf '…' >> f`.
func (r *reader) write(s *syntax.Stmt, name string, args []*syntax.Word) {
	dest, appendTo, ok := r.target(s)
	if name == "tee" {
		dest, appendTo, ok = r.teeTarget(args)
	}
	if !ok || !isConfigName(path.Base(dest)) {
		return
	}
	var t *deploy.Text
	switch name {
	case "cat", "tee":
		if hd := heredoc(s); hd != nil {
			t = r.heredocText(hd)
		}
	case "echo", "printf":
		t = r.echoText(s, name, args)
	}
	r.addText(t, dest, appendTo)
}

func (r *reader) addText(t *deploy.Text, dest string, appendTo bool) {
	if t == nil || r.full(len(r.res.Texts)) {
		return
	}
	t.Name, t.Path, t.Append, t.Container = path.Base(dest), r.abs(dest), appendTo, r.file
	t.Loc.File = r.file
	r.res.Texts = append(r.res.Texts, t)
}

// teeTarget is the first file tee writes, and whether it appends (-a).
func (r *reader) teeTarget(args []*syntax.Word) (string, bool, bool) {
	appendTo := false
	for _, a := range r.args(args) {
		switch {
		case a == "-a" || a == "--append":
			appendTo = true
		case strings.HasPrefix(a, "-"):
		case a == "/dev/null":
		default:
			return a, appendTo, true
		}
	}
	return "", false, false
}

// pipeWrite reads `echo … | tee f` and `cat <<EOF | tee -a f`.
func (r *reader) pipeWrite(c *syntax.BinaryCmd) bool {
	y, ok := c.Y.Cmd.(*syntax.CallExpr)
	if !ok || c.X == nil {
		return false
	}
	name, args := r.command(y.Args)
	if name != "tee" {
		return false
	}
	dest, appendTo, ok := r.teeTarget(args)
	if !ok || !isConfigName(path.Base(dest)) {
		return false
	}
	x, ok := c.X.Cmd.(*syntax.CallExpr)
	if !ok {
		return false
	}
	var t *deploy.Text
	switch xname, xargs := r.command(x.Args); xname {
	case "cat":
		if hd := heredoc(c.X); hd != nil && len(xargs) == 0 {
			t = r.heredocText(hd)
		}
	case "echo", "printf":
		t = r.echoText(c.X, xname, xargs)
	}
	if t == nil {
		return false
	}
	r.addText(t, dest, appendTo)
	return true
}

// echoText is the text echo or printf writes: not Exact (the shell
// decodes its words), located at the command.
func (r *reader) echoText(s *syntax.Stmt, name string, ws []*syntax.Word) *deploy.Text {
	args := r.args(ws)
	newline, escapes := true, false
	if name == "echo" {
		for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
			newline = newline && !strings.Contains(args[0], "n")
			escapes = strings.Contains(args[0], "e")
			args = args[1:]
		}
	} else {
		if len(args) != 1 || strings.Contains(strings.ReplaceAll(args[0], "%%", ""), "%") {
			r.note(s.Pos(), "printf with a format or arguments writes a configuration file: not read")
			return nil
		}
		args[0] = strings.ReplaceAll(args[0], "%%", "%")
		newline, escapes = false, true
	}
	text := strings.Join(args, " ")
	if escapes {
		text = decodeEscapes(text)
	}
	if newline {
		text += "\n"
	}
	return &deploy.Text{Loc: r.loc(s.Pos()), Src: []byte(text)}
}

// decodeEscapes decodes the backslash escapes echo -e and printf's format
// share: \n \t \\ and \" (others stay as written).
func decodeEscapes(s string) string {
	return strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`, `\"`, `"`).Replace(s)
}

// heredocText is the text of a here-document: Exact when its body lies
// verbatim in the container (bash's manual, "Here Documents": with a
// quoted delimiter the lines are not expanded; unquoted, `\` quotes only
// `\`, `$` and a backquote and drops a newline, so a body holding such an
// escape is not the bytes written; with `<<-` leading tabs are removed,
// so its lines must all carry the same tabs, Indent).
func (r *reader) heredocText(rd *syntax.Redirect) *deploy.Text {
	start := int(rd.Hdoc.Pos().Offset())
	if start < 0 || start > len(r.src) {
		return nil
	}
	delim, _ := r.eval(rd.Word, false)
	end := bodyEnd(r.src, start, delim, rd.Op == syntax.DashHdoc)
	body := r.src[start:end]
	quoted := wordQuoted(rd.Word)
	exact, indent := true, ""
	if !quoted && hasHeredocEscape(body) {
		exact = false
	}
	if rd.Op == syntax.DashHdoc {
		var same bool
		indent, same = commonTabs(body)
		exact = exact && same
	}
	if exact {
		if t := r.exactText(start, end, indent); t != nil {
			return t
		}
	}
	decoded := body
	if rd.Op == syntax.DashHdoc {
		decoded = stripTabs(body)
	}
	if !quoted {
		decoded = unescapeHeredoc(decoded)
	}
	return &deploy.Text{Loc: r.loc(rd.Hdoc.Pos()), Src: decoded}
}

// exactText is the body [start, end) of the script as an Exact text of
// the container, when one segment holds it.
func (r *reader) exactText(start, end int, indent string) *deploy.Text {
	for _, sg := range r.o.Segments {
		if start >= sg.Script && end <= sg.Script+sg.Len {
			cs, ce := sg.Container+start-sg.Script, sg.Container+end-sg.Script
			if ce > len(r.o.Container) {
				return nil
			}
			return Exact(r.o.Container, cs, ce, indent)
		}
	}
	return nil
}

// Exact is the Text of container[start:end] with its exact positions:
// Src is the container with every byte before start a space (line breaks
// kept), cut at end, so a reader of the embedded format sees each line at
// the line, column and offset it has in the container; a leading Indent
// of tabs (a `<<-` heredoc, which the shell strips) reads as spaces of
// the same width, since YAML refuses tabs as indentation. Loc is the line
// of start; Name, Path and Container are the caller's.
func Exact(container []byte, start, end int, indent string) *deploy.Text {
	src := make([]byte, end)
	for i, c := range container[:start] {
		if c == '\n' || c == '\r' {
			src[i] = c
		} else {
			src[i] = ' '
		}
	}
	copy(src[start:], container[start:end])
	if indent != "" {
		for p := start; p < end; {
			for i := 0; i < len(indent) && p+i < end && src[p+i] == '\t'; i++ {
				src[p+i] = ' '
			}
			nl := bytes.IndexByte(src[p:end], '\n')
			if nl < 0 {
				break
			}
			p += nl + 1
		}
	}
	return &deploy.Text{Loc: deploy.Loc{Line: 1 + bytes.Count(container[:start], []byte{'\n'})}, Src: src,
		Exact: true, Start: start, End: end, Indent: indent}
}

// bodyEnd is the offset of the line ending the body that starts at start:
// the first line equal to delim (after its leading tabs with `<<-`), else
// the end of src.
func bodyEnd(src []byte, start int, delim string, dash bool) int {
	for p := start; p < len(src); {
		e := len(src)
		if i := bytes.IndexByte(src[p:], '\n'); i >= 0 {
			e = p + i + 1
		}
		line := bytes.TrimSuffix(src[p:e], []byte{'\n'})
		if dash {
			line = bytes.TrimLeft(line, "\t")
		}
		if string(line) == delim {
			return p
		}
		p = e
	}
	return len(src)
}

// wordQuoted reports whether any part of a heredoc's delimiter is quoted
// (then its body is not expanded).
func wordQuoted(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(p.Value, `\`) {
				return true
			}
		}
	}
	return false
}

func hasHeredocEscape(body []byte) bool {
	for i := 0; i+1 < len(body); i++ {
		if body[i] == '\\' && strings.IndexByte("\\$`\n", body[i+1]) >= 0 {
			return true
		}
	}
	return false
}

func unescapeHeredoc(body []byte) []byte {
	var b bytes.Buffer
	for i := 0; i < len(body); i++ {
		if body[i] == '\\' && i+1 < len(body) && strings.IndexByte("\\$`\n", body[i+1]) >= 0 {
			i++
			if body[i] == '\n' {
				continue
			}
		}
		b.WriteByte(body[i])
	}
	return b.Bytes()
}

// commonTabs is the run of leading tabs every non-empty line of body
// carries, and whether they all carry the same.
func commonTabs(body []byte) (string, bool) {
	n, same := -1, true
	for _, line := range bytes.SplitAfter(body, []byte{'\n'}) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		t := len(line) - len(bytes.TrimLeft(line, "\t"))
		if n >= 0 && t != n {
			same = false
		}
		if n < 0 {
			n = t
		}
	}
	return strings.Repeat("\t", max(n, 0)), same
}

func stripTabs(body []byte) []byte {
	var b bytes.Buffer
	for _, line := range bytes.SplitAfter(body, []byte{'\n'}) {
		b.Write(bytes.TrimLeft(line, "\t"))
	}
	return b.Bytes()
}
