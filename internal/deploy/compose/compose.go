// Package compose reads a docker-compose project as a deployment source:
// one deploy.Workload per service, with its role, replicas, image and
// build, environment (FLINK_PROPERTIES as the flink-conf.yaml it becomes,
// bde2020's CORE_CONF_*/HDFS_CONF_* as the core-site.xml/hdfs-site.xml
// they become) and volumes, every fact located at its line.
//
// The compose model is the compose specification's own Go library's
// (github.com/compose-spec/compose-go/v2): its loader does the merge of
// override files, interpolation, extends, profiles and the canonical
// forms of every attribute. It is never let near the disk or the process
// environment: the compose files, .env, every env_file and extends.file
// are read through the caller's ReadFunc (which keeps to the repository)
// and handed to the loader as bytes and as its whole environment, so a
// variable .env does not define is unknown, never the value the CI
// runner that runs ckptlint happens to hold. compose-go gives values, not
// positions: the lines come from go.yaml.in/yaml/v3 nodes of the same
// files (nodes.go).
package compose

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"
	"github.com/sirupsen/logrus"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// Source is the deploy.Workload Source of a compose service.
const Source = "compose"

// ReadFunc reads a repository file by its display path. An error that
// wraps fs.ErrNotExist says the file is absent (an optional .env or
// override file); any other error, such as a path outside the repository,
// becomes a note.
type ReadFunc func(displayPath string) ([]byte, error)

// Options are what the display path alone cannot tell.
type Options struct {
	// DirName is the base name of the directory holding the compose
	// file, which names the project when neither `name:` nor
	// COMPOSE_PROJECT_NAME does (compose-go's loader: the project
	// directory's base name), for a file whose display path has no
	// directory ("docker-compose.yml" in the working directory).
	DirName string
	// Inside tells whether a display path lies inside the repository (a
	// bind mount's source); nil takes a relative path that does not climb
	// above the working directory as inside.
	Inside func(displayPath string) bool
}

// Result is what a compose project declares.
type Result struct {
	// Project is the compose project name, each Workload's Group.
	Project string `json:"project"`
	// Files are the compose files merged, in order (the file read, after
	// the base file it overrides, or with its sibling override file): a
	// caller that reads every compose file of a directory sees the same
	// project from each of them and keeps one.
	Files []string `json:"files"`
	// Other are the other files read: .env, env_file, extends.file.
	Other     []string          `json:"other,omitempty"`
	Workloads []deploy.Workload `json:"workloads"`
	// Notes say what could not be read, each naming file:line.
	Notes []string `json:"notes,omitempty"`
}

// The compose file names docker compose looks for, in its order of
// preference, and the override file it merges after the one it takes
// (compose-go cli/options.go DefaultFileNames, DefaultOverrideFileNames).
var (
	defaultNames  = []string{"compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml"}
	overrideNames = []string{"compose.override.yml", "compose.override.yaml", "docker-compose.override.yml", "docker-compose.override.yaml"}
)

// IsComposeFile reports whether a file name is one this source reads:
// docker-compose.yml, compose.yaml, and the variants docker-compose.*.yml
// and compose.*.yaml (an override or a file layered with -f), either
// extension.
func IsComposeFile(name string) bool {
	lower := strings.ToLower(name)
	ext := path.Ext(lower)
	if ext != ".yml" && ext != ".yaml" {
		return false
	}
	stem := strings.TrimSuffix(lower, ext)
	for _, p := range []string{"docker-compose", "compose"} {
		if stem == p || (strings.HasPrefix(stem, p+".") && len(stem) > len(p)+1) {
			return true
		}
	}
	return false
}

// Bounds on what one project makes this source read, beside the compose
// files themselves.
const (
	// maxOtherFiles bounds the .env, env_file and extends.file reads.
	maxOtherFiles = 64
	// maxExtendsDepth bounds a chain of extends.file.
	maxExtendsDepth = 16
)

// Read reads the compose project whose file is path (display path), with
// bytes src: the file with its sibling override file (docker-compose.yml
// with docker-compose.override.yml), or, for an override or variant
// (docker-compose.prod.yml), the base file of its directory and the file
// itself, as `docker compose -f docker-compose.yml -f
// docker-compose.prod.yml` merges them. It never fails: what it cannot
// read is a note.
func Read(path string, src []byte, read ReadFunc, opt Options) (res Result) {
	r := &reader{read: read, opt: opt, res: &res, files: map[string][]byte{}, blocks: map[string]*deploy.Blocks{}}
	// compose-go warns on logrus's standard logger ("The "X" variable is
	// not set", "the attribute `version` is obsolete"), also from the
	// dotenv and template functions this package calls itself: ckptlint
	// prints none of it (CI logs are public) and says what matters in
	// notes. The logger's output is given back when the read is done.
	logMu.Lock()
	std := logrus.StandardLogger()
	out := std.Out
	std.SetOutput(io.Discard)
	defer func() {
		std.SetOutput(out)
		logMu.Unlock()
	}()
	defer func() {
		// A panic in compose-go or a YAML library is a note on the file,
		// never a crash of the run (as internal/evidence safeParse).
		if p := recover(); p != nil {
			res = Result{Files: res.Files, Notes: append(res.Notes, fmt.Sprintf("%s: not read: the compose reader failed (%v)", path, p))}
		}
	}()
	r.run(path, src)
	for _, f := range r.blockFiles {
		if n := r.blocks[f].Note; n != "" {
			r.note("%s", n)
		}
	}
	return res
}

type reader struct {
	read  ReadFunc
	opt   Options
	res   *Result
	dir   string            // the project directory (display path, "." for the working directory)
	files map[string][]byte // every file read, by display path
	reads int
	env   *environment
	idx   *index
	// blocks are the block scalar locators of the compose files, made in
	// the order of blockFiles.
	blocks     map[string]*deploy.Blocks
	blockFiles []string
}

func (r *reader) note(format string, a ...any) {
	r.res.Notes = append(r.res.Notes, fmt.Sprintf(format, a...))
}

// readOther reads a file beside the compose files through the callback,
// within maxOtherFiles; absent reports whether the file does not exist.
func (r *reader) readOther(p string) (b []byte, absent bool, err error) {
	if b, ok := r.files[p]; ok {
		return b, false, nil
	}
	if r.reads >= maxOtherFiles {
		return nil, false, fmt.Errorf("not read: the project already read %d other files", maxOtherFiles)
	}
	r.reads++
	b, err = r.read(p)
	if err != nil {
		return nil, errors.Is(err, fs.ErrNotExist), err
	}
	r.files[p] = b
	r.res.Other = append(r.res.Other, p)
	return b, false, nil
}

// projectFiles are the compose files docker compose merges for the file
// at p: see Read.
func (r *reader) projectFiles(p string, src []byte) []string {
	dir, name := path.Split(p)
	lower := strings.ToLower(name)
	r.files[p] = src
	exists := func(n string) bool {
		q := dir + n
		if q == p {
			return true
		}
		b, err := r.read(q)
		if err != nil {
			return false
		}
		r.files[q] = b
		return true
	}
	isDefault := false
	for _, n := range defaultNames {
		if lower == n {
			isDefault = true
		}
	}
	if isDefault {
		for _, n := range defaultNames {
			if n == lower {
				break
			}
			if exists(n) {
				r.note("%s: docker compose reads %s%s, not this file, when both lie in one directory; read as its own project", p, dir, n)
				break
			}
		}
		for _, n := range overrideNames {
			if exists(n) && dir+n != p {
				return []string{p, dir + n}
			}
		}
		return []string{p}
	}
	for _, n := range defaultNames {
		if exists(n) {
			return []string{dir + n, p}
		}
	}
	return []string{p}
}

func (r *reader) run(p string, src []byte) {
	files := r.projectFiles(p, src)
	r.res.Files = files
	r.dir = path.Dir(files[0])
	r.env = r.loadDotEnv()
	if _, ok := r.env.vars["COMPOSE_FILE"]; ok {
		r.note("%s:%d: COMPOSE_FILE names the compose files docker compose reads in place of %s: not followed", r.env.file, r.env.lines["COMPOSE_FILE"], strings.Join(files, " and "))
	}
	idx, contents, ok := r.index(files)
	if !ok {
		return
	}
	r.idx = idx
	project, err := r.load(files, contents)
	if err != nil {
		r.note("%s", r.loadError(files, err))
		return
	}
	r.res.Project = project.Name
	for _, k := range r.env.unknownNames() {
		env := "the project has no .env"
		if r.env.file != "" {
			env = r.env.file + " does not define it"
		}
		r.note("%s: ${%s} is unknown: %s, and ckptlint never takes a value from the environment it runs in", r.idx.firstUse(k), k, env)
	}
	for _, name := range project.DisabledServiceNames() {
		s := project.DisabledServices[name]
		if r.idx.hidden[name] {
			continue
		}
		r.note("%s: service %s is in profile(s) %s, which docker compose up starts only with --profile or COMPOSE_PROFILES: not read",
			r.idx.serviceLoc(name), name, strings.Join(s.Profiles, ", "))
	}
	names := project.ServiceNames()
	sort.Strings(names)
	for _, name := range names {
		if r.idx.hidden[name] {
			continue
		}
		s, err := project.GetService(name)
		if err != nil {
			continue
		}
		r.res.Workloads = append(r.res.Workloads, r.workload(project, s))
	}
}

// logMu serialises the reads that silence logrus (Read).
var logMu sync.Mutex

// load runs compose-go's loader over the compose files' bytes.
func (r *reader) load(files []string, contents [][]byte) (p *types.Project, err error) {
	details := types.ConfigDetails{WorkingDir: r.dir, Environment: r.env.mapping()}
	for i, f := range files {
		details.ConfigFiles = append(details.ConfigFiles, types.ConfigFile{Filename: f, Content: contents[i]})
	}
	return loader.LoadWithContext(context.Background(), details, r.loaderOptions)
}

// loaderOptions keeps compose-go off the disk and off the process
// environment:
//   - include: is skipped (its files would be read from disk; nodes.go
//     notes each entry), extends.file is never seen by the loader
//     (nodes.go inlines the base service it names, read through the
//     callback);
//   - env_file and label_file are not resolved by the loader (it opens
//     them): environment.go reads env files through the callback;
//   - paths stay as written (resolving them expands ~ with the process's
//     HOME): bind mounts and build contexts are resolved in workload.go;
//   - interpolation looks up .env only, and leaves an unknown variable
//     as written (environment.go).
func (r *reader) loaderOptions(o *loader.Options) {
	o.SkipInclude = true
	o.SkipResolveEnvironment = true
	o.SkipResolveLabels = true
	o.ResolvePaths = false
	// The consistency check refuses what docker compose up would refuse
	// (an undeclared network, a service without image or build): the
	// deployment is still what the files say, and extends' inlined base
	// services (nodes.go) need not be complete services.
	o.SkipConsistencyCheck = true
	o.Profiles = r.env.profiles()
	if name, ok := r.env.vars["COMPOSE_PROJECT_NAME"]; ok && name != "" {
		o.SetProjectName(loader.NormalizeProjectName(name), true)
	} else {
		o.SetProjectName(loader.NormalizeProjectName(r.dirName()), false)
	}
	o.Interpolate = r.env.interpolation(o.Interpolate)
}

// dirName is the base name of the project directory ("default" when
// neither the display path nor Options tell it: compose-go refuses an
// empty project name).
func (r *reader) dirName() string {
	if r.dir != "." && r.dir != "" && !strings.HasSuffix(r.dir, "..") {
		return path.Base(r.dir)
	}
	if n := loader.NormalizeProjectName(r.opt.DirName); n != "" {
		return n
	}
	return "default"
}

// loadError renders an error of compose-go's loader, at the line of the
// service or attribute it names when the message names one.
func (r *reader) loadError(files []string, err error) string {
	msg := strings.ReplaceAll(err.Error(), "\n", "; ")
	at := files[0]
	if loc, ok := r.idx.locate(msg); ok {
		at = loc.String()
	}
	return fmt.Sprintf("%s: not read: compose-go refuses the project: %s", at, msg)
}
