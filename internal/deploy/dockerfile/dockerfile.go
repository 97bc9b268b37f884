// Package dockerfile reads a Dockerfile with BuildKit's own parser
// (github.com/moby/buildkit/frontend/dockerfile/parser, the one `docker
// build` runs) and its word expansion (frontend/dockerfile/shell), into
// the image a deployment runs (deploy.Build): the FROM chain (multi-stage
// builds, FROM x AS y, COPY --from), the repository files COPY and ADD put
// into the image, the ENV it sets (HADOOP_CONF_DIR, HADOOP_CLASSPATH,
// FLINK_CONF_DIR, FLINK_HOME), the distribution archives it fetches or
// unpacks (version evidence), the jars it puts into Flink's lib/ and
// plugins/ directories, and the configuration files its RUN instructions
// write (through internal/deploy/shell). Nothing is built or fetched.
//
// It is the one Dockerfile reader: internal/evidence takes its version
// evidence from File too.
package dockerfile

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/moby/buildkit/frontend/dockerfile/parser"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// MaxBytes is the largest Dockerfile read (internal/evidence's
// DefaultLimits.MaxFileBytes). BuildKit's parser itself refuses a line of
// 64 KiB or more ("dockerfile line greater than max allowed size").
const MaxBytes = 1 << 20

// maxFacts bounds the stages, copies, variables, versions, jars and
// texts of one Dockerfile.
const maxFacts = 1000

// IsDockerfile reports whether a file name is a Dockerfile: Dockerfile
// and Containerfile, with any suffix or prefix (Dockerfile.flink,
// Dockerfile_env, Dockerfile-dev, flink.Dockerfile, base.dockerfile), in
// any case; never an editor's or a merge tool's backup (deploy.IsBackup)
// nor BuildKit's per-Dockerfile ignore file (Dockerfile.dockerignore).
func IsDockerfile(name string) bool {
	lower := strings.ToLower(path.Base(strings.ReplaceAll(name, `\`, "/")))
	if deploy.IsBackup(lower) {
		return false
	}
	for _, s := range []string{".dockerignore", ".md", ".txt"} {
		if strings.HasSuffix(lower, s) {
			return false
		}
	}
	// Source, data and document files named after Dockerfiles
	// (dockerfile.go, dockerfile_test.py, Dockerfile.json) are none.
	if ext := path.Ext(lower); notDockerfileExt[ext] {
		return false
	}
	return strings.HasPrefix(lower, "dockerfile") || strings.HasPrefix(lower, "containerfile") ||
		strings.HasSuffix(lower, ".dockerfile") || strings.HasSuffix(lower, ".containerfile")
}

// notDockerfileExt are extensions that make a name starting with
// "dockerfile" a program, data or document about Dockerfiles.
var notDockerfileExt = map[string]bool{
	".go": true, ".py": true, ".java": true, ".kt": true, ".scala": true, ".rb": true, ".rs": true,
	".js": true, ".ts": true, ".sh": true, ".bash": true, ".json": true, ".yaml": true, ".yml": true,
	".xml": true, ".toml": true, ".html": true, ".rst": true, ".adoc": true, ".tmpl": true, ".j2": true,
	".golden": true, ".snap": true, ".patch": true, ".diff": true,
}

// File is a Dockerfile read: every stage, in order.
type File struct {
	Path   string
	Stages []*Stage
	// Versions are the versions the ARGs before the first FROM state.
	Versions []deploy.Version
	// Notes are one-line notes, each naming file:line, on what could not
	// be read.
	Notes []string
}

// Stage is one build stage: its FROM and what its own instructions do.
type Stage struct {
	deploy.Stage
	// Parent is the index of the stage this one is built FROM, -1 when
	// it is built from an image.
	Parent int
	// Env are its ENV instructions, values expanded.
	Env []deploy.EnvVar
	// Copies are the repository files its COPY and ADD put into the
	// image (paths resolved against the build context and WORKDIR).
	Copies []deploy.Copy
	// Versions are the versions it states: FLINK_VERSION-style ARG and
	// ENV, distribution archives its ADD, ARG, ENV and RUN name.
	Versions []deploy.Version
	// Jars are the jars it puts into Flink's lib/ or plugins/.
	Jars []deploy.Copy
	// Texts are configuration files it writes (RUN echo/cat/tee, COPY
	// <<EOF).
	Texts []*deploy.Text
	// from are its COPY --from of other stages.
	from    []stageCopy
	env     map[string]string // ARG and ENV in scope, for expansion
	workdir string
}

// stageCopy is a COPY --from=<stage> src dest.
type stageCopy struct {
	stage     int
	src, dest string
	loc       deploy.Loc
}

// Read reads a Dockerfile (display path file, bytes src) whose build
// context is the repository directory context (display path; "" is the
// Dockerfile's directory, as `docker build .` beside it) into the image
// its last stage builds, and the notes on what it could not read.
func Read(file string, src []byte, context string) (*deploy.Build, []string) {
	f := Parse(file, src, context)
	return f.Build(), f.Notes
}

// Parse reads every stage of a Dockerfile. A parse error, a file past
// MaxBytes, or a panic in the parser is a note and an empty File.
func Parse(file string, src []byte, context string) (f *File) {
	f = &File{Path: file}
	defer func() {
		if r := recover(); r != nil {
			f = &File{Path: file, Notes: []string{fmt.Sprintf("%s: not read: the Dockerfile parser failed (%v)", file, r)}}
		}
	}()
	if len(src) > MaxBytes {
		f.Notes = append(f.Notes, fmt.Sprintf("%s: not read: %d bytes; Dockerfiles of up to %d bytes are read", file, len(src), MaxBytes))
		return f
	}
	res, err := parser.Parse(bytes.NewReader(src))
	if err != nil {
		f.Notes = append(f.Notes, fmt.Sprintf("%s: not read as a Dockerfile: %v", errLoc(file, err), errText(err)))
		return f
	}
	if context == "" {
		context = path.Dir(file)
	}
	b := &builder{f: f, file: file, src: src, context: context, escape: res.EscapeToken, global: map[string]string{}, lines: lineStarts(src)}
	for _, n := range res.AST.Children {
		b.instruction(n)
	}
	return f
}

// errLoc is file:line of a BuildKit parse error.
func errLoc(file string, err error) string {
	var le *parser.LocationError
	if errors.As(err, &le) && len(le.Locations) > 0 && len(le.Locations[0]) > 0 {
		return deploy.Loc{File: file, Line: le.Locations[0][0].Start.Line}.String()
	}
	return file
}

// errText is a BuildKit error's message without its location wrapper.
func errText(err error) string {
	var le *parser.LocationError
	if errors.As(err, &le) && le.Unwrap() != nil {
		return le.Unwrap().Error()
	}
	return err.Error()
}

func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// Build is the image the last stage builds: its FROM resolved through
// the stages it is built on, and the copies, variables, versions, jars and
// texts of those stages and of the stages it copies from (COPY --from),
// mapped to where they end up.
func (f *File) Build() *deploy.Build {
	b := &deploy.Build{Dockerfile: f.Path, Loc: deploy.Loc{File: f.Path, Line: 1}}
	for _, s := range f.Stages {
		b.Stages = append(b.Stages, s.Stage)
	}
	b.Versions = clip(f.Versions)
	if len(f.Stages) == 0 {
		return b
	}
	last := len(f.Stages) - 1
	root := last
	for f.Stages[root].Parent >= 0 {
		root = f.Stages[root].Parent
	}
	b.From, b.FromLoc = f.Stages[last].Image, f.Stages[root].Loc
	e := f.effective(last)
	b.Copies, b.Env, b.Texts = e.Copies, e.Env, e.Texts
	seen := map[string]bool{}
	for _, j := range e.Jars {
		if !seen[j.Dest] { // a jar copied from a stage that recorded it too
			seen[j.Dest] = true
			b.Jars = append(b.Jars, j)
		}
	}
	b.Versions = appendCapped(clip(f.Versions), e.Versions...)
	return b
}

// effective is what stage i's image holds: its parent's, then its own
// instructions', with what it copies from other stages mapped to where
// it puts it. A stage builds on and copies from earlier stages only, so
// each stage's is computed once, in order.
func (f *File) effective(i int) *Stage {
	effs := make([]*Stage, i+1)
	for k := 0; k <= i; k++ {
		effs[k] = f.stageEffective(k, effs)
	}
	return effs[i]
}

func (f *File) stageEffective(i int, effs []*Stage) *Stage {
	s := f.Stages[i]
	out := &Stage{}
	if p := s.Parent; p >= 0 && p < i {
		e := effs[p]
		*out = Stage{Env: clip(e.Env), Copies: clip(e.Copies), Versions: clip(e.Versions), Jars: clip(e.Jars), Texts: clip(e.Texts)}
	}
	out.Env = appendCapped(out.Env, s.Env...)
	out.Copies = appendCapped(out.Copies, s.Copies...)
	out.Versions = appendCapped(out.Versions, s.Versions...)
	out.Jars = appendCapped(out.Jars, s.Jars...)
	out.Texts = appendCapped(out.Texts, s.Texts...)
	for _, c := range s.from {
		if c.stage < 0 || c.stage >= i {
			continue
		}
		o := effs[c.stage]
		out.Versions = appendCapped(out.Versions, o.Versions...)
		for _, oc := range o.Copies {
			if m, ok := through(oc, c.src, c.dest, c.loc); ok {
				out.Copies = appendCapped(out.Copies, m)
			}
		}
		for _, j := range o.Jars {
			if m, ok := through(j, c.src, c.dest, c.loc); ok && s.inFlinkDirs(m.Dest) {
				m.Src = j.Src
				out.Jars = appendCapped(out.Jars, m)
			}
		}
		for _, t := range o.Texts {
			if m, ok := through(deploy.Copy{Dest: t.Path}, c.src, c.dest, c.loc); ok {
				tt := *t
				tt.Path = m.Dest
				out.Texts = appendCapped(out.Texts, &tt)
			}
		}
	}
	return out
}

// clip is s with no room to grow in place: appending to it copies, so
// stages never share a backing array.
func clip[T any](s []T) []T { return s[:len(s):len(s)] }

func appendCapped[T any](s []T, v ...T) []T {
	if len(s)+len(v) > maxFacts {
		v = v[:max(maxFacts-len(s), 0)]
	}
	return append(s, v...)
}

// through maps a file another stage put at c.Dest through `COPY
// --from=stage src dest`: the copy it makes of that file, if src covers
// it (src is the file, or a directory above it) or lies inside it.
//
// A copy into a directory (Dest ending in '/') puts a file source at
// Dest/<its name> and a directory source's contents at Dest; a source
// with an extension (core-site.xml, job.jar) is taken for a file, since
// which it is shows only in the repository.
func through(c deploy.Copy, src, dest string, at deploy.Loc) (deploy.Copy, bool) {
	cd, s := path.Clean(c.Dest), path.Clean(src)
	if strings.HasSuffix(c.Dest, "/") && path.Ext(c.Src) != "" {
		cd = path.Join(cd, path.Base(c.Src))
	}
	intoDir := strings.HasSuffix(dest, "/")
	switch {
	case cd == s:
		if intoDir {
			return deploy.Copy{Src: c.Src, Dest: path.Join(dest, path.Base(s)), Loc: at}, true
		}
		return deploy.Copy{Src: c.Src, Dest: dest, Loc: at}, true
	case strings.HasPrefix(cd, s+"/") || s == "/":
		rel := strings.TrimPrefix(strings.TrimPrefix(cd, s), "/")
		return deploy.Copy{Src: c.Src, Dest: path.Join(dest, rel), Loc: at}, true
	case strings.HasPrefix(s, cd+"/"):
		rel := strings.TrimPrefix(s, cd+"/")
		return deploy.Copy{Src: path.Join(c.Src, rel), Dest: dest, Loc: at}, true
	}
	return deploy.Copy{}, false
}
