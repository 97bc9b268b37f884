package inputfs

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// observer holds what a Recorder recorded: one probe per operation and
// path, the first answer kept. It is safe for concurrent use.
type observer struct {
	mu     sync.Mutex
	probes map[probeKey]probeValue
	// trustBefore: a stat signature is recorded only for a file or
	// directory last changed before it (Trusted).
	trustBefore time.Time
	cwd         string // the working directory, for relative paths
}

type probeKey struct{ op, path string }

type probeValue struct{ result, sig string }

// Probe is one observation of a Recorder: Op applied to Path gave Result. Sig, when
// set, is the stat signature (Signature) of the file or directory read:
// a replay that finds the same signature takes the observation as holding
// without reading again, as git's index and Go's build cache do.
type Probe struct {
	Op     string `json:"op"`
	Path   string `json:"path"`
	Result string `json:"result"`
	Sig    string `json:"sig,omitempty"`
}

// RacyWindow is how long before a run a file must have last changed for
// its stat signature to be recorded: a file changed within the same
// clock tick as it was read could change again without its modification
// time moving (git calls this "racy"; Documentation/technical/racy-git.txt),
// and file systems keep times as coarsely as two seconds (FAT).
const RacyWindow = 2 * time.Second

// Signature identifies the state of a file or directory by its stat data:
// device, inode, mode, size, modification time and status-change time,
// all in nanoseconds. Any write, rename over it, chmod or utime changes
// it (the ctime moves on every one of those, and no program can set it).
// "" when st carries no stat data (sig_other.go).
func Signature(st fs.FileInfo) string {
	if st == nil {
		return ""
	}
	dev, ino, mt, ct, ok := statTimes(st)
	if !ok {
		return ""
	}
	// Binary, not text: it is compared, never shown, and a warm run loads
	// 10,000 of them.
	var b [6 * binary.MaxVarintLen64]byte
	s := binary.AppendUvarint(b[:0], dev)
	s = binary.AppendUvarint(s, ino)
	s = binary.AppendUvarint(s, uint64(st.Mode()))
	s = binary.AppendVarint(s, st.Size())
	s = binary.AppendVarint(s, mt.UnixNano())
	s = binary.AppendVarint(s, ct.UnixNano())
	return string(s)
}

// Trusted is Signature when the file last changed (modification and
// status-change time) before before, "" otherwise.
func Trusted(st fs.FileInfo, before time.Time) string {
	if st == nil {
		return ""
	}
	_, _, mt, ct, ok := statTimes(st)
	if !ok || !mt.Before(before) || !ct.Before(before) {
		return ""
	}
	return Signature(st)
}

// Probe operations.
const (
	OpRead     = "read"     // ReadRegular(Path, limit): "size:sha256" or an error class; Op is "read:<limit>"
	OpStat     = "stat"     // os.Stat type: "file", "dir", "symlink", "other", "absent" or "error"
	OpLstat    = "lstat"    // os.Lstat type, as OpStat
	OpDir      = "dir"      // os.ReadDir: a hash of the entry names and types
	OpReal     = "real"     // filepath.EvalSymlinks of the absolute path, or "error"
	OpRepoRoot = "reporoot" // RepoRoot(Path)
)

func newObserver() *observer {
	cwd, _ := os.Getwd()
	return &observer{probes: map[probeKey]probeValue{}, trustBefore: time.Now().Add(-RacyWindow), cwd: cwd}
}

func (o *observer) record(op, path, result string) { o.recordSig(op, path, result, "") }

func (o *observer) recordSig(op, path, result, sig string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, ok := o.probes[probeKey{op, path}]; !ok {
		o.probes[probeKey{op, path}] = probeValue{result, sig}
	}
}

// read records a ReadRegularInfo(path, limit) and its outcome; st is the
// file information it returned (nil when the open failed).
func (o *observer) read(path string, limit int64, src []byte, st fs.FileInfo, err error) {
	sig := ""
	if err == nil {
		sig = Trusted(st, o.trustBefore)
	}
	o.recordSig(readOp(limit), o.abs(path), readResult(src, err), sig)
}

func readOp(limit int64) string { return OpRead + ":" + strconv.FormatInt(limit, 10) }

func readResult(src []byte, err error) string {
	if err != nil {
		return "error:" + errorClass(err)
	}
	// The raw digest, not hex: results live in the result cache's binary
	// section, never in JSON, and a warm run loads 10,000 of them.
	h := sha256.Sum256(src)
	return strconv.Itoa(len(src)) + ":" + string(h[:])
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
	case st.Mode()&fs.ModeSymlink != 0:
		return "symlink"
	}
	return "other"
}

// repoRootMemo is RepoRoot of the clean absolute path d, remembering the
// answer for d and each parent it looks at in memo; marker(dir) tells
// whether dir/.git marks a repository.
func repoRootMemo(memo map[string]string, d string, marker func(dir string) bool) string {
	if v, ok := memo[d]; ok {
		return v
	}
	root := ""
	if marker(d) {
		root = d
	} else if p := filepath.Dir(d); p != d {
		root = repoRootMemo(memo, p, marker)
	}
	memo[d] = root
	return root
}

// hasGitMarker reports whether dir/.git marks a repository (isGitMarker).
func hasGitMarker(dir string) bool { return isGitMarker(filepath.Join(dir, ".git")) }

func entryLine(name string, t fs.FileMode) string {
	return name + "\x00" + t.Type().String()
}

// listingResult is a directory probe's result: the listing's hash, then
// noGit when no entry is named .git (the replay then knows the directory
// holds no repository marker without looking: Replayer.repoRoot).
func listingResult(lines []string) string {
	for _, l := range lines {
		if strings.HasPrefix(l, ".git\x00") {
			return listingHash(lines) + "g"
		}
	}
	return listingHash(lines) + noGit
}

const noGit = "-"

func listingHash(lines []string) string {
	s := append([]string(nil), lines...)
	sort.Strings(s)
	h := sha256.New()
	for _, l := range s {
		h.Write([]byte(l))
		h.Write([]byte{'\n'})
	}
	return string(h.Sum(nil)) // raw, as readResult
}

// sorted returns the observations, sorted by path and operation.
func (o *observer) sorted() []Probe {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]Probe, 0, len(o.probes))
	for k, v := range o.probes {
		out = append(out, Probe{Op: k.op, Path: k.path, Result: v.result, Sig: v.sig})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Op < out[j].Op
	})
	return out
}

// Replayer re-executes probes. It remembers what it learnt on the way
// (the Lstat of each path, the real path of each directory, the
// repository root of each directory), so probes of many files in one tree
// cost about one system call per path. Not safe for concurrent use; use
// one per goroutine, over probes sorted by path (Recorder.Probes).
type Replayer struct {
	// TrustBefore: Check returns a new signature for a read or listing it
	// verified by content when the file last changed before it.
	TrustBefore time.Time
	// Read receives the bytes of each file a read probe re-read.
	Read func(path string, src []byte)
	// NoGit, shared by the replayers of one replay, holds the directories
	// whose listing probe held and had no .git entry: their repository
	// marker needs no stat (repoRoot).
	NoGit *sync.Map

	lstats   map[string]lstatResult
	realDirs map[string]string
	roots    map[string]string
}

type lstatResult struct {
	st  fs.FileInfo
	err error
}

// Holds reports whether re-executing p gives p.Result again.
func (r *Replayer) Holds(p Probe) bool {
	ok, _ := r.Check(p)
	return ok
}

// Check reports whether re-executing p gives p.Result again. A read or
// listing probe whose signature still matches holds without reading; one
// checked by content returns, when it holds, the signature to record for
// it next time (or "" when the file changed too recently to trust one).
func (r *Replayer) Check(p Probe) (holds bool, sig string) {
	if !filepath.IsAbs(p.Path) {
		return false, ""
	}
	switch {
	case strings.HasPrefix(p.Op, OpRead+":"):
		limit, err := strconv.ParseInt(strings.TrimPrefix(p.Op, OpRead+":"), 10, 64)
		if err != nil || limit < 0 {
			return false, ""
		}
		if p.Sig != "" {
			if st, err := r.stat(p.Path); err == nil && Signature(st) == p.Sig {
				return true, p.Sig
			}
		}
		src, st, err := ReadRegularInfo(p.Path, limit)
		if err == nil && r.Read != nil {
			r.Read(p.Path, src)
		}
		if readResult(src, err) != p.Result {
			return false, ""
		}
		if err != nil {
			return true, ""
		}
		return true, Trusted(st, r.TrustBefore)
	case p.Op == OpStat:
		st, err := r.stat(p.Path)
		return statResult(st, err) == p.Result, ""
	case p.Op == OpLstat:
		st, err := r.lstat(p.Path)
		return statResult(st, err) == p.Result, ""
	case p.Op == OpDir:
		holds, sig := r.checkDir(p)
		if holds && strings.HasSuffix(p.Result, noGit) && r.NoGit != nil {
			r.NoGit.Store(p.Path, true) // the listing as recorded, without .git
		}
		return holds, sig
	case p.Op == OpReal:
		return r.real(p.Path) == p.Result, ""
	case p.Op == OpRepoRoot:
		return r.repoRoot(p.Path) == p.Result, ""
	}
	return false, ""
}

// checkDir is Check for a directory listing.
func (r *Replayer) checkDir(p Probe) (holds bool, sig string) {
	st, serr := r.stat(p.Path)
	if p.Sig != "" && serr == nil && Signature(st) == p.Sig {
		return true, p.Sig
	}
	entries, err := os.ReadDir(p.Path)
	if err != nil {
		return p.Result == "error", ""
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = entryLine(e.Name(), e.Type())
	}
	if listingResult(names) != p.Result {
		return false, ""
	}
	// The stat was taken before the listing: a change in between moves
	// the directory's times past TrustBefore.
	if serr != nil {
		return true, ""
	}
	return true, Trusted(st, r.TrustBefore)
}

// ReadProbe reads the file of a read probe again and returns its bytes
// when they are still what the probe recorded; false otherwise (another
// operation, another result, or an error now or then).
func ReadProbe(p Probe) ([]byte, bool) {
	if !strings.HasPrefix(p.Op, OpRead+":") || !filepath.IsAbs(p.Path) {
		return nil, false
	}
	limit, err := strconv.ParseInt(strings.TrimPrefix(p.Op, OpRead+":"), 10, 64)
	if err != nil || limit < 0 {
		return nil, false
	}
	src, err := ReadRegular(p.Path, limit)
	if err != nil || readResult(src, nil) != p.Result {
		return nil, false
	}
	return src, true
}

// ReadSize is the size of the file a read probe read; false for a read
// that failed.
func ReadSize(p Probe) (int64, bool) {
	if !strings.HasPrefix(p.Op, OpRead+":") {
		return 0, false
	}
	n, _, ok := strings.Cut(p.Result, ":")
	if !ok || n == "error" {
		return 0, false
	}
	v, err := strconv.ParseInt(n, 10, 64)
	return v, err == nil && v >= 0
}

// ReadOp is the operation of a read probe with limit.
func ReadOp(limit int64) string { return readOp(limit) }

// lstat is os.Lstat, remembered.
func (r *Replayer) lstat(p string) (fs.FileInfo, error) {
	if r.lstats == nil {
		r.lstats = map[string]lstatResult{}
	}
	if l, ok := r.lstats[p]; ok {
		return l.st, l.err
	}
	st, err := os.Lstat(p)
	r.lstats[p] = lstatResult{st, err}
	return st, err
}

// stat is os.Stat, from the remembered Lstat when p is not a symlink.
func (r *Replayer) stat(p string) (fs.FileInfo, error) {
	st, err := r.lstat(p)
	if err == nil && st.Mode()&fs.ModeSymlink == 0 {
		return st, nil
	}
	return os.Stat(p)
}

// realResult is the result of a real-path probe: filepath.EvalSymlinks of
// abs, or "error".
func realResult(abs string) string {
	r, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "error"
	}
	return r
}

// real is realResult (filepath.EvalSymlinks of the absolute path abs, or
// "error"). When no element of abs is a symlink and every element
// exists, EvalSymlinks returns abs itself: that is decided from one
// remembered Lstat per element; anything else asks EvalSymlinks.
func (r *Replayer) real(abs string) string {
	if filepath.Clean(abs) != abs {
		return realResult(abs)
	}
	if r.plain(abs) {
		return abs
	}
	return realResult(abs)
}

// plain reports whether abs and each of its parents exist and none is a
// symlink.
func (r *Replayer) plain(abs string) bool {
	if r.realDirs == nil {
		r.realDirs = map[string]string{}
	}
	if v, ok := r.realDirs[abs]; ok {
		return v == abs
	}
	parent := filepath.Dir(abs)
	ok := true
	if parent != abs {
		st, err := r.lstat(abs)
		ok = err == nil && st.Mode()&fs.ModeSymlink == 0 && r.plain(parent)
	}
	if ok {
		r.realDirs[abs] = abs
	} else {
		r.realDirs[abs] = ""
	}
	return ok
}

// repoRoot is RepoRoot, remembering the answer for each directory.
func (r *Replayer) repoRoot(dir string) string {
	d, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	if r.roots == nil {
		r.roots = map[string]string{}
	}
	return repoRootMemo(r.roots, d, func(dir string) bool {
		if r.NoGit != nil {
			if _, ok := r.NoGit.Load(dir); ok {
				return false
			}
		}
		return hasGitMarker(dir)
	})
}

func (o *observer) abs(p string) string {
	if a, err := AbsFrom(o.cwd, p); err == nil {
		return a
	}
	return p
}
