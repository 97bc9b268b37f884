// Package shell reads the shell scripts that install, configure and start
// Flink on a host (and the RUN instructions of a Dockerfile, for
// internal/deploy/dockerfile) with mvdan.cc/sh's bash parser: the
// variables they export (HADOOP_CONF_DIR, FLINK_CONF_DIR, HADOOP_CLASSPATH,
// ...), the configuration files they write (a heredoc or an echo into
// flink-conf.yaml, config.yaml or a *-site.xml: deploy.Text), the Flink
// processes they start (start-cluster.sh, jobmanager.sh start,
// taskmanager.sh start, standalone-job.sh, flink run: a deploy.Workload
// with Source "shell" and no image), the files they download or copy, and
// the distribution tarballs they name (version evidence).
//
// Nothing is executed. The script is read once, in source order, as if
// every branch ran: a variable's value is the last literal assigned
// before the line that uses it, and a part of a word the script cannot
// know (a command substitution, a variable it never sets) is kept as
// written ("$(hadoop classpath)", "$HADOOP_HOME/etc/hadoop").
// docs/deployment.md lists what is read and what is not.
package shell

import (
	"bytes"
	"fmt"
	"slices"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// Limits on untrusted input (docs/security.md).
const (
	// MaxBytes is the largest script read: the input limit of version
	// evidence (internal/evidence DefaultLimits.MaxFileBytes).
	MaxBytes = 1 << 20
	// MaxDepth bounds the nesting of brackets and compound commands the
	// parser is given: mvdan.cc/sh parses nesting by recursion, and
	// 300,000 nested '(' (300 KB) exhaust Go's 1 GB stack, a crash no
	// recover catches; 20,000 nested '((' take it 3.5 s. Real scripts nest
	// a few levels.
	MaxDepth = 200
	// maxFacts bounds the workloads, texts, variables, files and versions
	// one script yields.
	maxFacts = 1000
)

// Result is what a script declares.
type Result struct {
	// Workloads are the Flink processes it starts, in order.
	Workloads []*deploy.Workload
	// Texts are the configuration files it writes.
	Texts []*deploy.Text
	// Env are the variables it exports (export, declare -x, set -a), in
	// the order set; a later entry of a name overrides an earlier one.
	Env []deploy.EnvVar
	// Files are the files it downloads (wget, curl) or copies (cp, mv,
	// ln): Src is the URL or the path copied, Dest the path written.
	Files []deploy.Copy
	// Versions are the distribution archives it names and the literal
	// FLINK_VERSION / HADOOP_VERSION it assigns.
	Versions []deploy.Version
	// Notes are one-line notes, each naming file:line, on what could not
	// be read.
	Notes []string
}

// Segment says that Len bytes of a script at Script lie verbatim at
// Container in the containing file (a Dockerfile's heredoc).
type Segment struct{ Script, Container, Len int }

// Options are how a script embedded in another file is read.
type Options struct {
	// Env are variables known before the script runs (a Dockerfile's ARG
	// and ENV): they expand in the script's words, also for its version
	// evidence.
	Env map[string]string
	// Dir is the working directory the script starts in ("" unknown).
	Dir string
	// Line, when set, is the line of every Loc (a Dockerfile RUN: its
	// instruction's first line).
	Line int
	// Container, when set, is the file the script lies in and Segments
	// where: a text written from a heredoc is Exact only when its body lies
	// inside one segment, at the container's offsets. Without Container,
	// the script is the file.
	Container []byte
	Segments  []Segment
}

// Read reads the script file (display path) with bytes src.
func Read(file string, src []byte) *Result {
	return ReadWith(file, src, Options{})
}

// ReadWith reads a script with options o. A panic in the parser is
// recovered into a note: the script then yields nothing.
func ReadWith(file string, src []byte, o Options) (res *Result) {
	res = &Result{}
	defer func() {
		if r := recover(); r != nil {
			res = &Result{Notes: []string{fmt.Sprintf("%s: not read: the shell parser failed (%v)", loc(file, o.Line, 1), r)}}
		}
	}()
	f, err := Parse(file, src)
	if err != nil {
		res.Notes = append(res.Notes, fmt.Sprintf("%s: not read as a shell script: %v", loc(file, o.Line, 1), err))
		return res
	}
	r := newReader(file, src, o, res)
	r.versions(f)
	r.stmts(f.Stmts)
	return res
}

// Versions is the version evidence alone of a script (Result.Versions),
// or why it could not be read.
func Versions(file string, src []byte, o Options) (vs []deploy.Version, err error) {
	defer func() {
		if r := recover(); r != nil {
			vs, err = nil, fmt.Errorf("the shell parser failed (%v)", r)
		}
	}()
	f, err := Parse(file, src)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	newReader(file, src, o, res).versions(f)
	return res.Versions, nil
}

// Parse parses src as a bash script within the limits (MaxBytes,
// MaxDepth), the one way this repository parses shell.
func Parse(file string, src []byte) (*syntax.File, error) {
	if len(src) > MaxBytes {
		return nil, fmt.Errorf("%d bytes; scripts of up to %d bytes are read", len(src), MaxBytes)
	}
	if d, line := depth(src); d > MaxDepth {
		return nil, fmt.Errorf("line %d: brackets or compound commands nested more than %d levels deep", line, MaxDepth)
	}
	return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(bytes.NewReader(src), file)
}

func loc(file string, fixed, line int) string {
	return deploy.Loc{File: file, Line: cmpOr(fixed, line)}.String()
}

func cmpOr(a, b int) int {
	if a > 0 {
		return a
	}
	return b
}

// depth is an upper bound of the nesting mvdan.cc/sh's parser recurses
// into: '(', '{', '[' and backquotes against their closers, and the
// compound commands opened by if, while, until, for, select and case
// against fi, done and esac, counted on the bytes alone outside comments
// and quotes (brackets in quotes count too: an over-count only matters
// past MaxDepth). It returns the deepest level and its line.
func depth(src []byte) (deepest, line int) {
	d, ln, back := 0, 1, false
	var quote byte
	bump := func(n int) {
		d = max(d+n, 0)
		if d > deepest {
			deepest, line = d, ln
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\n':
			ln++
		case c == '\\' && quote != '\'':
			i++
			if i < len(src) && src[i] == '\n' {
				ln++
			}
		case quote != 0 && c == quote:
			quote = 0
		case c == '(' || c == '{' || c == '[':
			bump(1)
		case c == ')' || c == '}' || c == ']':
			bump(-1)
		case c == '`':
			back = !back
			if back {
				bump(1)
			} else {
				bump(-1)
			}
		case quote != 0:
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || isBlank(src[i-1])):
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
		case isLower(c) && (i == 0 || !isWordByte(src[i-1])):
			j := i
			for j < len(src) && isWordByte(src[j]) {
				j++
			}
			bump(keywordDepth(string(src[i:j])))
			i = j - 1
		}
	}
	return deepest, line
}

func keywordDepth(w string) int {
	switch w {
	case "if", "while", "until", "for", "select", "case":
		return 1
	case "fi", "done", "esac":
		return -1
	}
	return 0
}

func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|'
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

func isWordByte(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// variable is a shell variable as the reader follows it.
type variable struct {
	value    string
	known    bool // value is wholly literal
	exported bool
	loc      deploy.Loc
}

// reader walks one script.
type reader struct {
	file   string
	src    []byte
	o      Options
	res    *Result
	vars   map[string]*variable
	order  []string // exported names, in the order exported
	allexp bool     // set -a
	cwd    string
}

func newReader(file string, src []byte, o Options, res *Result) *reader {
	r := &reader{file: file, src: src, o: o, res: res, vars: map[string]*variable{}, cwd: o.Dir}
	if o.Container == nil {
		r.o.Container = src
		r.o.Segments = []Segment{{Script: 0, Container: 0, Len: len(src)}}
	}
	return r
}

func (r *reader) loc(p syntax.Pos) deploy.Loc {
	return deploy.Loc{File: r.file, Line: cmpOr(r.o.Line, int(p.Line()))}
}

func (r *reader) note(p syntax.Pos, format string, args ...any) {
	if len(r.res.Notes) < maxFacts {
		r.res.Notes = append(r.res.Notes, r.loc(p).String()+": "+fmt.Sprintf(format, args...))
	}
}

// full reports whether the result holds maxFacts facts of some kind.
func (r *reader) full(n int) bool { return n >= maxFacts }

// versions collects the version evidence of the whole tree, as
// internal/evidence always read scripts: every word's literal text
// (expansions of variables the script does not know broken at a space)
// matched against the tarball names, and literal assignments to
// FLINK_VERSION / HADOOP_VERSION. A script's own variables do not expand
// here: a version in a loop or a branch is no single fact.
func (r *reader) versions(f *syntax.File) {
	syntax.Walk(f, func(n syntax.Node) bool {
		if r.full(len(r.res.Versions)) {
			return false
		}
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name == nil || n.Value == nil {
				return true
			}
			if p := deploy.VersionVar(n.Name.Value); p != "" {
				if lit, ok := r.literal(n.Value); ok {
					if v := deploy.VersionPrefix(lit); v != "" {
						r.res.Versions = append(r.res.Versions, deploy.Version{Product: p, Version: v,
							What: n.Name.Value + "=" + lit, Loc: r.loc(n.Pos())})
					}
				}
			}
		case *syntax.Word:
			if text := r.wordText(n); text != "" {
				r.res.Versions = append(r.res.Versions, deploy.Tarballs(text, r.loc(n.Pos()))...)
			}
		}
		return true
	})
}

// export records that name is exported with its current value.
func (r *reader) export(name string, at syntax.Pos) {
	v := r.vars[name]
	if v == nil {
		return // export NAME of a variable the script never set: the environment's
	}
	v.exported = true
	r.order = slices.DeleteFunc(r.order, func(n string) bool { return n == name })
	r.order = append(r.order, name)
	if !r.full(len(r.res.Env)) {
		r.res.Env = append(r.res.Env, deploy.EnvVar{Name: name, Value: v.value, Loc: cmpLoc(v.loc, r.loc(at))})
	}
}

func cmpLoc(a, b deploy.Loc) deploy.Loc {
	if a.Line > 0 {
		return a
	}
	return b
}

// environ is what a command started now inherits: the exported
// variables, then the command's own prefix assignments.
func (r *reader) environ(prefix []deploy.EnvVar) []deploy.EnvVar {
	var out []deploy.EnvVar
	for _, name := range r.order {
		if v := r.vars[name]; v != nil && v.exported {
			out = append(out, deploy.EnvVar{Name: name, Value: v.value, Loc: v.loc})
		}
	}
	return append(out, prefix...)
}
