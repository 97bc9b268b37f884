package compose

import (
	"bytes"
	"errors"
	"path"
	"sort"
	"strings"

	interp "github.com/compose-spec/compose-go/v2/interpolation"
	"github.com/compose-spec/compose-go/v2/template"
	"github.com/compose-spec/compose-go/v2/tree"
	"github.com/compose-spec/compose-go/v2/types"

	"github.com/compose-spec/compose-go/v2/dotenv"
)

// environment is what compose interpolates with: the project's .env, and
// nothing else. docker compose also reads the shell that runs it (which
// wins over .env); ckptlint never reads its own environment, a CI
// runner's, which holds secrets and is not the deployer's: a variable
// .env does not define is unknown.
type environment struct {
	file  string            // the .env display path, "" when there is none
	vars  map[string]string // its variables
	lines map[string]int    // the line defining each
	// unknown are the variables the compose files use that .env does not
	// define, with the value they were written in.
	unknown map[string]bool
	// casts are unknown values compose-go needed as numbers or booleans
	// (deploy.replicas: ${N}), by written value.
	casts map[string]tree.Path
}

// loadDotEnv reads the .env of the project directory (compose-go
// cli.WithDotEnv: `.env` in the working directory of the project),
// parsed by compose-go's dotenv parser; a variable it references that it
// does not define itself stays as written (unknown).
func (r *reader) loadDotEnv() *environment {
	e := &environment{vars: map[string]string{}, lines: map[string]int{}, unknown: map[string]bool{}, casts: map[string]tree.Path{}}
	p := path.Join(r.dir, ".env")
	b, absent, err := r.readOther(p)
	if err != nil {
		if !absent {
			r.note("%s: not read: %v", p, err)
		}
		return e
	}
	e.file = p
	vars := map[string]string{}
	if err := dotenv.ParseWithFormat(bytes.NewReader(b), p, vars, unknownAsWritten(vars), ""); err != nil {
		r.note("%s: not read: %v", p, err)
		return e
	}
	e.vars = vars
	e.lines = keyLines(b)
	return e
}

// unknownAsWritten is a dotenv lookup over vars that leaves a variable
// it does not hold as written, ${NAME}: unknown, and so a placeholder for
// the readers after this one.
func unknownAsWritten(vars ...map[string]string) dotenv.LookupFn {
	return func(k string) (string, bool) {
		for _, m := range vars {
			if v, ok := m[k]; ok {
				return v, true
			}
		}
		return "${" + k + "}", true
	}
}

// keyLines locates the variables of an env file: the line of the
// statement that gives each its value. The file is parsed by compose-go's
// dotenv parser line by line, and a variable is placed at the statement
// (NAME=value, NAME: value, export NAME=..., a bare NAME: dotenv
// parser.go locateKeyName) at or above the line where its value was
// complete (a quoted value may span lines). Past maxParsedLines a file
// is placed by its statements alone.
func keyLines(b []byte) map[string]int {
	lines := splitLines(string(b))
	stmt, last := statements(lines)
	if len(lines) > maxParsedLines {
		return last
	}
	out := map[string]int{}
	prev := map[string]string{}
	end := 0
	for i, l := range lines {
		end = lineEnd(b, end+len(l))
		m := map[string]string{}
		if err := dotenv.ParseWithFormat(bytes.NewReader(b[:end]), "", m, unknownAsWritten(m), ""); err != nil {
			continue
		}
		for k, v := range m {
			if pv, ok := prev[k]; !ok || pv != v {
				out[k] = statementAbove(stmt, k, i)
			}
		}
		prev = m
	}
	for k, l := range last {
		if _, ok := out[k]; !ok {
			out[k] = l
		}
	}
	return out
}

// statements are the keys the lines of an env file start a statement of
// ("" for a line that starts none), and the last line naming each key.
func statements(lines []string) (stmt []string, last map[string]int) {
	stmt = make([]string, len(lines))
	last = map[string]int{}
	for i, l := range lines {
		l = strings.TrimLeft(l, " \t")
		if rest, ok := strings.CutPrefix(l, "export"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			l = strings.TrimLeft(rest, " \t")
		}
		if l == "" || l[0] == '#' {
			continue
		}
		end := strings.IndexAny(l, "=:")
		if end < 0 {
			end = len(l)
		}
		if k := strings.TrimRight(l[:end], " \t\r"); k != "" {
			stmt[i], last[k] = k, i+1
		}
	}
	return stmt, last
}

// lineEnd is the offset past the line break at off ("\n", "\r\n" or a
// lone "\r"; off itself at the end of b): the file's own bytes up to a
// line's end.
func lineEnd(b []byte, off int) int {
	if off < len(b) && b[off] == '\r' {
		off++
	}
	if off < len(b) && b[off] == '\n' {
		off++
	}
	return off
}

// statementAbove is the 1-based line of the statement of key k at or
// above line index i, else line i+1.
func statementAbove(stmt []string, k string, i int) int {
	for j := i; j >= 0; j-- {
		if stmt[j] == k {
			return j + 1
		}
	}
	return i + 1
}

// splitLines splits s at "\n", "\r\n" and lone "\r", the line breaks
// of the repository's line model (internal/parsed).
func splitLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Split(strings.ReplaceAll(s, "\r", "\n"), "\n")
}

// maxParsedLines bounds the env files keyLines parses line by line.
const maxParsedLines = 1000

func (e *environment) mapping() types.Mapping {
	m := types.Mapping{}
	for k, v := range e.vars {
		m[k] = v
	}
	return m
}

// profiles are the profiles .env activates (COMPOSE_PROFILES, as the
// docker compose CLI reads it); none otherwise, as `docker compose up`.
func (e *environment) profiles() []string {
	var out []string
	for _, p := range strings.Split(e.vars["COMPOSE_PROFILES"], ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// interpolation is compose-go's interpolation with .env as the only
// source, and an unknown variable left as written.
func (e *environment) interpolation(base *interp.Options) *interp.Options {
	casts := map[tree.Path]interp.Cast{}
	if base != nil {
		for p, c := range base.TypeCastMapping {
			casts[p] = e.castUnknown(p, c)
		}
	}
	return &interp.Options{
		LookupValue: func(k string) (string, bool) {
			v, ok := e.vars[k]
			return v, ok
		},
		TypeCastMapping: casts,
		Substitute:      e.substitute,
	}
}

// substitute is compose-go's template.Substitute except for a variable
// .env does not define: `$X`, `${X}` and `${X:?message}` are left as
// written (the template placeholder ckptlint reads as unknown) where
// compose would put the shell's value (or nothing), while `${X:-default}`
// and `${X-default}` give the default, as for an unset variable, and
// `${X:+alt}` nothing.
func (e *environment) substitute(tmpl string, mapping template.Mapping) (string, error) {
	return template.SubstituteWithOptions(tmpl, mapping, template.WithoutLogging,
		template.WithReplacementFunction(e.replace))
}

func (e *environment) replace(s string, mapping template.Mapping, cfg *template.Config) (string, error) {
	// One match can run past its closing brace (the braced pattern's
	// default is greedy): template.DefaultReplacementAppliedFunc then
	// substitutes the rest with the default function; this does it with
	// this one.
	head, rest := s, ""
	if i := closingBrace(s); i >= 0 {
		head, rest = s[:i+1], s[i+1:]
	}
	unknown := ""
	m := func(k string) (string, bool) {
		v, ok := mapping(k)
		if !ok {
			unknown = k
		}
		return v, ok
	}
	v, ok, err := template.DefaultReplacementAppliedFunc(head, m, cfg)
	var missing *template.MissingRequiredError
	switch {
	case err != nil && errors.As(err, &missing) && unknown != "":
		e.unknown[unknown] = true
		v = head
	case err != nil:
		return "", err
	case !ok:
		e.unknown[unknown] = true
		v = head
	}
	if rest != "" {
		r, err := e.substitute(rest, mapping)
		if err != nil {
			return "", err
		}
		v += r
	}
	return v, nil
}

// closingBrace is compose-go template.getFirstBraceClosingIndex.
func closingBrace(s string) int {
	open := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '}' {
			open--
			if open == 0 {
				return i
			}
		}
		if s[i] == '{' {
			open++
			i++
		}
	}
	return -1
}

// castUnknown wraps compose-go's cast of the attribute at p to a number
// or boolean: a value still holding an unknown variable is recorded and
// cast as 0 (or false), so the rest of the project is read; the workload
// then leaves the attribute undeclared and a note says why.
func (e *environment) castUnknown(p tree.Path, c interp.Cast) interp.Cast {
	return func(v string) (any, error) {
		if !template.DefaultPattern.MatchString(v) {
			return c(v)
		}
		e.casts[v] = p
		if x, err := c("0"); err == nil {
			return x, nil
		}
		return c("false")
	}
}

// unknownNames are the unknown variables, sorted.
func (e *environment) unknownNames() []string {
	var out []string
	for k := range e.unknown {
		if k != "" {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// envVar is one variable of a container's environment with where it was
// declared.
type envVar struct {
	value *string // nil: no value compose can know
	file  string  // env file display path, "" for the service's environment:
	line  int
}

// serviceEnv resolves a service's environment as compose-go's
// types.resolveEnvironment does (a variable without a value takes .env's;
// env files in order, each overriding the one before; then the service's
// environment over them), with the env files read through the callback.
func (r *reader) serviceEnv(s types.ServiceConfig) map[string]envVar {
	out := map[string]envVar{}
	explicit := s.Environment.Resolve(func(k string) (string, bool) {
		v, ok := r.env.vars[k]
		return v, ok
	})
	vars := explicit.ToMapping()
	for _, f := range s.EnvFiles {
		p := f.Path
		if path.IsAbs(p) || strings.HasPrefix(p, "~") {
			r.note("%s: env_file %s lies outside the repository: not read", r.idx.attrLoc(s.Name, "env_file"), p)
			continue
		}
		disp := path.Join(r.dir, p)
		b, absent, err := r.readOther(disp)
		if err != nil {
			if absent && !bool(f.Required) {
				continue // required: false, and absent: compose skips it
			}
			r.note("%s: env_file %s not read: %v", r.idx.attrLoc(s.Name, "env_file"), disp, err)
			continue
		}
		got := map[string]string{}
		lookup := unknownAsWritten(r.env.vars, nonNil(explicit), vars, got)
		if err := dotenv.ParseWithFormat(bytes.NewReader(b), disp, got, lookup, f.Format); err != nil {
			r.note("%s: not read: %v", disp, err)
			continue
		}
		lines := keyLines(b)
		if _, ok := got[""]; ok {
			// compose-go's parser takes a last line without = or newline as
			// a value without a name.
			r.note("%s:%d: a statement without a variable name: not read", disp, len(splitLines(strings.TrimRight(string(b), "\r\n"))))
			delete(got, "")
		}
		for k, v := range got {
			vars[k] = v
			ev := envVar{value: &v, file: disp, line: lines[k]}
			if ev.line == 0 {
				// Not placed in the file: where the service names it.
				loc := r.idx.attrLoc(s.Name, "env_file")
				ev.file, ev.line = loc.File, loc.Line
			}
			out[k] = ev
		}
	}
	for k, v := range explicit {
		if v == nil {
			if _, fromFile := out[k]; fromFile {
				continue
			}
		}
		out[k] = envVar{value: v}
	}
	return out
}

func nonNil(m types.MappingWithEquals) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		if v != nil {
			out[k] = *v
		}
	}
	return out
}
