package shell

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// stmts reads statements in source order, into every compound command
// and function body (as if each branch ran once).
func (r *reader) stmts(ss []*syntax.Stmt) {
	for _, s := range ss {
		r.stmt(s)
	}
}

func (r *reader) stmt(s *syntax.Stmt) {
	if s == nil || s.Cmd == nil {
		return
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		r.call(s, c)
	case *syntax.DeclClause:
		r.decl(c)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			if r.pipeWrite(c) {
				return
			}
		}
		r.stmt(c.X)
		r.stmt(c.Y)
	case *syntax.Block:
		r.stmts(c.Stmts)
	case *syntax.Subshell:
		saved := r.cwd
		r.stmts(c.Stmts)
		r.cwd = saved
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			r.stmts(ic.Cond)
			r.stmts(ic.Then)
		}
	case *syntax.WhileClause:
		r.stmts(c.Cond)
		r.stmts(c.Do)
	case *syntax.ForClause:
		r.stmts(c.Do)
	case *syntax.CaseClause:
		for _, it := range c.Items {
			r.stmts(it.Stmts)
		}
	case *syntax.FuncDecl:
		r.stmt(c.Body)
	case *syntax.TimeClause:
		r.stmt(c.Stmt)
	case *syntax.CoprocClause:
		r.stmt(c.Stmt)
	}
}

// assign sets a variable of the script (exported when export is set, or
// under set -a, or when it already was).
func (r *reader) assign(a *syntax.Assign, export bool) {
	if a == nil || a.Name == nil || a.Array != nil || a.Index != nil {
		return
	}
	name := a.Name.Value
	if a.Naked {
		if export {
			r.export(name, a.Pos())
		}
		return
	}
	val, known := r.eval(a.Value, true)
	old := r.vars[name]
	if a.Append && old != nil {
		val, known = old.value+val, known && old.known
	}
	v := &variable{value: val, known: known, loc: r.loc(a.Pos())}
	v.exported = old != nil && old.exported
	r.vars[name] = v
	if export || r.allexp || v.exported {
		r.export(name, a.Pos())
	}
}

// decl reads export, declare -x and typeset -x (readonly and local set a
// variable without exporting it).
func (r *reader) decl(c *syntax.DeclClause) {
	variant := c.Variant.Value
	export := variant == "export"
	for _, a := range c.Args {
		if a.Naked && a.Name == nil && a.Value != nil {
			if flag, ok := r.literal(a.Value); ok && strings.HasPrefix(flag, "-") && strings.Contains(flag, "x") &&
				(variant == "declare" || variant == "typeset") {
				export = true
			}
		}
	}
	for _, a := range c.Args {
		if a.Name != nil {
			r.assign(a, export)
		}
	}
}

// wrappers run the command that follows them (with its own options).
var wrappers = map[string]bool{"sudo": true, "nohup": true, "exec": true, "command": true, "env": true, "nice": true, "setsid": true, "time": true}

// command strips the wrappers (sudo -u flink, nohup, exec, env, …) off a
// simple command: its name and the words after it.
func (r *reader) command(args []*syntax.Word) (string, []*syntax.Word) {
	for len(args) > 0 {
		name := lastLit(args[0])
		if !wrappers[name] {
			return name, args[1:]
		}
		args = args[1:]
		for len(args) > 0 {
			w, _ := r.literal(args[0])
			if !strings.HasPrefix(w, "-") && !(name == "env" && strings.Contains(w, "=")) {
				break
			}
			args = args[1:]
			if name == "sudo" && (w == "-u" || w == "-g") && len(args) > 0 {
				args = args[1:]
			}
		}
	}
	return "", nil
}

func (r *reader) call(s *syntax.Stmt, c *syntax.CallExpr) {
	if len(c.Args) == 0 {
		for _, a := range c.Assigns {
			r.assign(a, false)
		}
		return
	}
	var prefix []deploy.EnvVar
	for _, a := range c.Assigns {
		if a.Name != nil && a.Value != nil {
			v, _ := r.eval(a.Value, true)
			prefix = append(prefix, deploy.EnvVar{Name: a.Name.Value, Value: v, Loc: r.loc(a.Pos())})
		}
	}
	name, rest := r.command(c.Args)
	switch name {
	case "export":
		r.exportWords(rest)
	case "set":
		for _, a := range r.args(rest) {
			if strings.HasPrefix(a, "-") && strings.Contains(a, "a") {
				r.allexp = true
			} else if strings.HasPrefix(a, "+") && strings.Contains(a, "a") {
				r.allexp = false
			}
		}
	case "cd":
		r.cd(rest)
	case "cat", "tee", "echo", "printf":
		r.write(s, name, rest)
	case "wget", "curl":
		r.download(s, name, rest)
	case "cp", "mv", "ln":
		r.copyFiles(s, name, rest)
	case "sed":
		r.sed(s, rest)
	}
	r.start(c, name, rest, prefix)
}

// exportWords reads `export NAME=value` where the parser left it a
// simple command (after a wrapper such as sudo).
func (r *reader) exportWords(ws []*syntax.Word) {
	for _, w := range ws {
		lit, _ := r.eval(w, true)
		name, val, ok := strings.Cut(lit, "=")
		if !ok {
			r.export(name, w.Pos())
			continue
		}
		r.vars[name] = &variable{value: val, known: true, loc: r.loc(w.Pos())}
		r.export(name, w.Pos())
	}
}

// cd follows the working directory through literal absolute or relative
// paths; any other cd makes it unknown.
func (r *reader) cd(ws []*syntax.Word) {
	if len(ws) != 1 {
		r.cwd = ""
		return
	}
	d, known := r.eval(ws[0], true)
	switch {
	case !known || d == "-" || strings.HasPrefix(d, "~"):
		r.cwd = ""
	case path.IsAbs(d):
		r.cwd = path.Clean(d)
	case r.cwd != "":
		r.cwd = path.Join(r.cwd, d)
	}
}

// abs is p against the working directory, p itself when that is unknown.
func (r *reader) abs(p string) string {
	if path.IsAbs(p) || r.cwd == "" || strings.Contains(p, "://") {
		return p
	}
	return path.Join(r.cwd, p)
}

// sed -i on a configuration file edits it in place: not read (a note).
func (r *reader) sed(s *syntax.Stmt, ws []*syntax.Word) {
	inPlace := false
	for _, a := range r.args(ws) {
		if strings.HasPrefix(a, "-i") || a == "--in-place" {
			inPlace = true
		}
		if inPlace && isConfigName(path.Base(a)) {
			r.note(s.Pos(), "sed edits %s in place: ckptlint does not apply the edit", a)
		}
	}
}
