package dockerfile

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/moby/buildkit/frontend/dockerfile/parser"
	"github.com/moby/buildkit/frontend/dockerfile/shell"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// maxStages bounds the stages of one Dockerfile (real ones have a few).
const maxStages = 128

// builder reads the instructions of one Dockerfile in order.
type builder struct {
	f       *File
	file    string
	src     []byte
	context string
	escape  rune
	// global are the ARGs before the first FROM: the only variables a
	// FROM line expands ("FROM instructions support variables that are
	// declared by any ARG instructions that occur before the first FROM",
	// Dockerfile reference, "Understand how ARG and FROM interact").
	global map[string]string
	lines  []int // offset of each line's start
	cur    *Stage
	seen   map[deploy.Version]bool
}

// envMap is an EnvGetter over a map, for BuildKit's word expansion.
type envMap map[string]string

func (e envMap) Get(k string) (string, bool) { v, ok := e[k]; return v, ok }

func (e envMap) Keys() []string {
	keys := make([]string, 0, len(e))
	for k := range e {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// expand is a word after BuildKit's variable substitution (the
// instructions ADD, COPY, ENV, ARG, FROM, WORKDIR expand $VAR, ${VAR},
// ${VAR:-default}, … and drop quotes): a variable that is not known here
// (a --build-arg, the base image's ENV) stays as written.
func (b *builder) expand(word string, env map[string]string) string {
	lex := shell.NewLex(b.escape)
	lex.SkipUnsetEnv = true
	out, _, err := lex.ProcessWord(word, envMap(env))
	if err != nil {
		return word
	}
	return out
}

func (b *builder) loc(n *parser.Node) deploy.Loc { return deploy.Loc{File: b.file, Line: n.StartLine} }

func (b *builder) note(n *parser.Node, format string, args ...any) {
	if len(b.f.Notes) < maxFacts {
		b.f.Notes = append(b.f.Notes, b.loc(n).String()+": "+fmt.Sprintf(format, args...))
	}
}

// words are the arguments of an instruction.
func words(n *parser.Node) []string {
	var out []string
	for x := n.Next; x != nil; x = x.Next {
		out = append(out, x.Value)
	}
	return out
}

// flag is the value of --name=value among an instruction's flags.
func flag(n *parser.Node, name string) (string, bool) {
	for _, f := range n.Flags {
		if v, ok := strings.CutPrefix(f, "--"+name+"="); ok {
			return v, true
		}
	}
	return "", false
}

func (b *builder) instruction(n *parser.Node) {
	cmd := strings.ToLower(n.Value)
	if cmd == "from" {
		b.from(n)
		return
	}
	if cmd == "arg" {
		b.arg(n)
		return
	}
	if b.cur == nil {
		return // only ARG may come before the first FROM (or past maxStages)
	}
	switch cmd {
	case "env":
		b.env(n)
	case "workdir":
		if ws := words(n); len(ws) == 1 {
			b.cur.workdir = b.abs(b.expand(ws[0], b.cur.env))
		}
	case "copy", "add":
		b.copyAdd(n, cmd)
	case "run":
		b.run(n)
	}
}

// from opens a stage. An official Flink image (flink, apache/flink)
// brings FLINK_HOME=/opt/flink and WORKDIR $FLINK_HOME (apache/flink-docker,
// 1.20/scala_2.12-java17-ubuntu/Dockerfile L52-56): a relative
// destination and $FLINK_HOME resolve against it.
func (b *builder) from(n *parser.Node) {
	ws := words(n)
	if len(ws) == 0 {
		return
	}
	if len(b.f.Stages) >= maxStages {
		if b.cur != nil {
			b.note(n, "more than %d build stages: this one and the rest are not read", maxStages)
		}
		b.cur = nil
		return
	}
	st := &Stage{Parent: -1, env: map[string]string{}}
	st.Loc = b.loc(n)
	st.From = b.expand(ws[0], b.global)
	if len(ws) >= 3 && strings.EqualFold(ws[1], "as") {
		st.Name = strings.ToLower(ws[2])
	}
	if p := b.stageNamed(st.From); p >= 0 {
		parent := b.f.Stages[p]
		st.Parent, st.Image, st.workdir = p, parent.Image, parent.workdir
	} else if !strings.EqualFold(st.From, "scratch") && !strings.Contains(st.From, "$") {
		st.Image = st.From
		if OfficialFlink(st.Image) {
			st.workdir = "/opt/flink"
		}
	}
	if OfficialFlink(st.Image) {
		st.env["FLINK_HOME"] = "/opt/flink"
	}
	if st.Parent >= 0 {
		for _, e := range b.f.effectiveEnv(st.Parent) {
			st.env[e.Name] = e.Value // ENV carries over to a stage built on it; ARG does not
		}
	}
	b.f.Stages = append(b.f.Stages, st)
	b.cur = st
}

// effectiveEnv is the ENV stage i's image holds (its parents' first).
func (f *File) effectiveEnv(i int) []deploy.EnvVar {
	var chain []*Stage
	for k := i; k >= 0 && len(chain) <= maxStages; k = f.Stages[k].Parent {
		chain = append(chain, f.Stages[k])
	}
	var out []deploy.EnvVar
	for k := len(chain) - 1; k >= 0; k-- {
		out = append(out, chain[k].Env...)
	}
	return out
}

// stageNamed is the index of the earlier stage a FROM or COPY --from
// names (by its AS name, any case, or its number), -1 for an image.
func (b *builder) stageNamed(name string) int {
	lower := strings.ToLower(name)
	for i, s := range b.f.Stages {
		if s.Name != "" && s.Name == lower {
			return i
		}
	}
	if i, err := strconv.Atoi(name); err == nil && i >= 0 && i < len(b.f.Stages) {
		return i
	}
	return -1
}

// OfficialFlink reports whether an image reference names the official
// Flink image (Docker Hub's flink or apache/flink, any tag).
func OfficialFlink(ref string) bool {
	name := ref
	if i := strings.IndexByte(name, '@'); i >= 0 {
		name = name[:i]
	}
	if i := strings.LastIndexByte(name, ':'); i > strings.LastIndexByte(name, '/') {
		name = name[:i]
	}
	name = strings.TrimPrefix(strings.TrimPrefix(strings.ToLower(name), "docker.io/"), "library/")
	return name == "flink" || name == "apache/flink"
}

// arg reads ARG NAME[=default]: before the first FROM a global ARG, in a
// stage a variable in scope until the stage ends (a bare ARG NAME there
// takes the global default). A default is substituted where declared; a
// --build-arg can override it, which ckptlint cannot see.
func (b *builder) arg(n *parser.Node) {
	for _, w := range words(n) {
		name, val, hasVal := strings.Cut(w, "=")
		scope := b.global
		if b.cur != nil {
			scope = b.cur.env
		}
		switch {
		case hasVal:
			val = b.expand(val, scope)
		case b.cur != nil:
			if v, ok := b.global[name]; ok {
				scope[name] = v // the global default, stated where the global ARG is
			}
			continue
		default:
			continue
		}
		scope[name] = val
		b.versionVar("ARG", name, val, n)
	}
}

// env reads ENV NAME=value … and the legacy ENV NAME value.
func (b *builder) env(n *parser.Node) {
	ws := words(n)
	for i := 0; i+2 < len(ws) || i+1 < len(ws) && i+2 == len(ws); i += 3 {
		name, val := ws[i], b.expand(ws[i+1], b.cur.env)
		b.cur.env[name] = val
		if len(b.cur.Env) < maxFacts {
			b.cur.Env = append(b.cur.Env, deploy.EnvVar{Name: name, Value: val, Loc: b.loc(n)})
		}
		b.versionVar("ENV", name, val, n)
	}
}

// versionVar takes FLINK_VERSION-style variables and distribution
// archives named in a value as version evidence.
func (b *builder) versionVar(instr, name, val string, n *parser.Node) {
	var vs []deploy.Version
	if p := deploy.VersionVar(name); p != "" {
		if v := deploy.VersionPrefix(val); v != "" {
			vs = append(vs, deploy.Version{Product: p, Version: v, What: instr + " " + name + "=" + val, Loc: b.loc(n)})
		}
	}
	vs = append(vs, deploy.Tarballs(val, b.loc(n))...)
	b.addVersions(vs...)
}

// addVersions records versions in the current stage, or, before the
// first FROM, in the global ones the first stage takes.
func (b *builder) addVersions(vs ...deploy.Version) {
	if len(vs) == 0 {
		return
	}
	if b.seen == nil {
		b.seen = map[deploy.Version]bool{}
	}
	for _, v := range vs {
		if b.seen[v] {
			continue // the same archive named twice by one instruction (wget, tar, rm)
		}
		b.seen[v] = true
		if b.cur == nil {
			b.f.Versions = appendCapped(b.f.Versions, v)
		} else {
			b.cur.Versions = appendCapped(b.cur.Versions, v)
		}
	}
}

// abs is a path in the image against the stage's WORKDIR (as written when
// that is unknown).
func (b *builder) abs(p string) string {
	if path.IsAbs(p) || b.cur == nil || b.cur.workdir == "" {
		return p
	}
	dir := strings.HasSuffix(p, "/")
	p = path.Join(b.cur.workdir, p)
	if dir {
		p += "/"
	}
	return p
}

// flinkHome is Flink's directory in the stage's image: its FLINK_HOME,
// else /opt/flink, where the official image and most others install it.
func (s *Stage) flinkHome() string {
	if h := s.env["FLINK_HOME"]; path.IsAbs(h) {
		return path.Clean(h)
	}
	return "/opt/flink"
}

// inFlinkDirs reports whether a path in the image is a jar in Flink's
// lib/ or in a plugin's directory below plugins/ (Flink's classpath and
// its plugin class loaders: docs "Plugins").
func (s *Stage) inFlinkDirs(p string) bool {
	if !strings.HasSuffix(strings.ToLower(p), ".jar") {
		return false
	}
	home := s.flinkHome()
	d := path.Dir(path.Clean(p))
	return d == home+"/lib" || path.Dir(d) == home+"/plugins"
}
