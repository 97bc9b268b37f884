package inputfs

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Observer records what one run looked at on the file system: the bytes of
// every file it read, the listing of every directory it walked or searched,
// the type (or absence) of every path it probed, the real path of every
// path it resolved and the repository root it found for a directory. The
// result cache (lint/cache, docs/cache.md) keeps these observations with
// the findings, and a later run reuses the findings only when replaying
// every observation gives the same result. A nil *Observer records
// nothing. It is safe for concurrent use.
type Observer struct {
	mu     sync.Mutex
	probes map[probeKey]string
	// walked collects the entries a directory walk saw, by directory.
	walked map[string][]string
}

type probeKey struct{ op, path string }

// Probe is one observation: Op applied to Path gave Result.
type Probe struct {
	Op     string `json:"op"`
	Path   string `json:"path"`
	Result string `json:"result"`
}

// Probe operations.
const (
	OpRead     = "read"     // ReadRegular(Path, limit): "size:sha256" or an error class; Op is "read:<limit>"
	OpStat     = "stat"     // os.Stat type: "file", "dir", "other", "absent" or "error"
	OpDir      = "dir"      // os.ReadDir: a hash of the entry names and types
	OpReal     = "real"     // filepath.EvalSymlinks of the absolute path, or "error"
	OpRepoRoot = "reporoot" // RepoRoot(Path)
)

// NewObserver returns an empty Observer.
func NewObserver() *Observer {
	return &Observer{probes: map[probeKey]string{}, walked: map[string][]string{}}
}

func (o *Observer) record(op, path, result string) {
	if o == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, ok := o.probes[probeKey{op, path}]; !ok {
		o.probes[probeKey{op, path}] = result
	}
}

// Read records a ReadRegular(path, limit) and its outcome.
func (o *Observer) Read(path string, limit int64, src []byte, err error) {
	if o == nil {
		return
	}
	o.record(readOp(limit), absPath(path), readResult(src, err))
}

func readOp(limit int64) string { return OpRead + ":" + strconv.FormatInt(limit, 10) }

func readResult(src []byte, err error) string {
	if err != nil {
		return "error:" + errorClass(err)
	}
	h := sha256.Sum256(src)
	return strconv.Itoa(len(src)) + ":" + hex.EncodeToString(h[:])
}

// errorClass names the kind of a read error, without the parts (sizes,
// messages) that may differ between two runs over the same tree.
func errorClass(err error) string {
	var nr *NotRegularError
	var tl *TooLargeError
	switch {
	case errors.As(err, &nr):
		return "not-regular:" + nr.Kind
	case errors.As(err, &tl):
		return "too-large"
	case errors.Is(err, fs.ErrNotExist):
		return "absent"
	case errors.Is(err, fs.ErrPermission):
		return "permission"
	}
	return "other"
}

// Stat is os.Stat, recorded.
func (o *Observer) Stat(path string) (fs.FileInfo, error) {
	st, err := os.Stat(path)
	if o != nil {
		o.record(OpStat, absPath(path), statResult(st, err))
	}
	return st, err
}

func statResult(st fs.FileInfo, err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "absent"
	case err != nil:
		return "error"
	case st.Mode().IsRegular():
		return "file"
	case st.IsDir():
		return "dir"
	}
	return "other"
}

// Real records filepath.EvalSymlinks of path made absolute.
func (o *Observer) Real(path string) {
	if o == nil {
		return
	}
	abs := absPath(path)
	o.record(OpReal, abs, realResult(abs))
}

func realResult(abs string) string {
	r, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "error"
	}
	return r
}

// RepoRoot is RepoRoot, recorded.
func (o *Observer) RepoRoot(dir string) string {
	r := RepoRoot(dir)
	o.record(OpRepoRoot, absPath(dir), r)
	return r
}

// Dir records the listing of a directory read with os.ReadDir.
func (o *Observer) Dir(dir string, entries []fs.DirEntry, err error) {
	if o == nil {
		return
	}
	if err != nil {
		o.record(OpDir, absPath(dir), "error")
		return
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = entryLine(e.Name(), e.Type())
	}
	o.record(OpDir, absPath(dir), listingHash(names))
}

// WalkEntry records one entry a filepath.WalkDir callback saw below its
// root; WalkDone turns the entries seen into directory listings for the
// directories the walk descended into (descended lists them).
func (o *Observer) WalkEntry(path string, e fs.DirEntry) {
	if o == nil {
		return
	}
	dir := absPath(filepath.Dir(path))
	o.mu.Lock()
	o.walked[dir] = append(o.walked[dir], entryLine(e.Name(), e.Type()))
	o.mu.Unlock()
}

// WalkDone records the listing of each directory in descended as the walk
// saw it (WalkEntry).
func (o *Observer) WalkDone(descended []string) {
	if o == nil {
		return
	}
	for _, d := range descended {
		d = absPath(d)
		o.mu.Lock()
		names := o.walked[d]
		o.mu.Unlock()
		o.record(OpDir, d, listingHash(names))
	}
}

func entryLine(name string, t fs.FileMode) string {
	return name + "\x00" + t.Type().String()
}

func listingHash(lines []string) string {
	s := append([]string(nil), lines...)
	sort.Strings(s)
	h := sha256.New()
	for _, l := range s {
		h.Write([]byte(l))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Probes returns the observations, sorted by path and operation.
func (o *Observer) Probes() []Probe {
	if o == nil {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]Probe, 0, len(o.probes))
	for k, v := range o.probes {
		out = append(out, Probe{Op: k.op, Path: k.path, Result: v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Op < out[j].Op
	})
	return out
}

// Replayer re-executes probes. It remembers the real path of each
// directory, so resolving many files of one directory costs one Lstat
// each. Not safe for concurrent use; use one per goroutine.
type Replayer struct {
	realDirs map[string]string
	// Read receives the bytes of each file a read probe re-read.
	Read func(path string, src []byte)
}

// Holds reports whether re-executing p gives p.Result again.
func (r *Replayer) Holds(p Probe) bool {
	if !filepath.IsAbs(p.Path) {
		return false
	}
	switch {
	case strings.HasPrefix(p.Op, OpRead+":"):
		limit, err := strconv.ParseInt(strings.TrimPrefix(p.Op, OpRead+":"), 10, 64)
		if err != nil || limit < 0 {
			return false
		}
		src, err := ReadRegular(p.Path, limit)
		if err == nil && r.Read != nil {
			r.Read(p.Path, src)
		}
		return readResult(src, err) == p.Result
	case p.Op == OpStat:
		st, err := os.Stat(p.Path)
		return statResult(st, err) == p.Result
	case p.Op == OpDir:
		entries, err := os.ReadDir(p.Path)
		if err != nil {
			return p.Result == "error"
		}
		names := make([]string, len(entries))
		for i, e := range entries {
			names[i] = entryLine(e.Name(), e.Type())
		}
		return listingHash(names) == p.Result
	case p.Op == OpReal:
		return r.real(p.Path) == p.Result
	case p.Op == OpRepoRoot:
		return RepoRoot(p.Path) == p.Result
	}
	return false
}

// real is realResult, resolving each directory once.
func (r *Replayer) real(abs string) string {
	dir, base := filepath.Split(abs)
	dir = filepath.Clean(dir)
	if base == "" || dir == abs {
		return realResult(abs)
	}
	st, err := os.Lstat(abs)
	if err != nil || st.Mode()&fs.ModeSymlink != 0 {
		return realResult(abs)
	}
	if r.realDirs == nil {
		r.realDirs = map[string]string{}
	}
	rd, ok := r.realDirs[dir]
	if !ok {
		rd = realResult(dir)
		r.realDirs[dir] = rd
	}
	if rd == "error" {
		return "error"
	}
	return filepath.Join(rd, base)
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
