package write

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ckptlint/ckptlint/internal/inputfs"
)

// maxJournal bounds the journal a run reads (a journal is a few hundred
// bytes per file written).
const maxJournal = 4 << 20

// journalHeader is the first line of every journal.
type journalHeader struct {
	Journal string `json:"journal"` // "ckptlint-fix"
	Version int    `json:"version"` // 1
}

// journalEntry is one file of a write: the real target, its staged file,
// and the SHA-256 (hex) of its content before ("" when it did not exist)
// and after.
type journalEntry struct {
	Target string `json:"target"`
	Staged string `json:"staged"`
	Old    string `json:"old"`
	New    string `json:"new"`
}

// journalCommit is the last line: every staged file is complete and synced.
type journalCommit struct {
	Commit bool `json:"commit"`
}

// journal is an open journal of the running write.
type journal struct {
	path string
	f    *os.File
}

func digest(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// journalPath is where the journal of the boundary root (a real path)
// lives: in the git directory of the work tree holding it
// (<git dir>/ckptlint/), or, outside git, in the user cache directory
// (<user cache dir>/ckptlint-fix/); its name is keyed by the root. Never in
// the work tree: a journal there could come from a commit, and a fix
// "completing" it would swap a staged file the commit also brought into a
// file the commit never touched (issue 25 item 2). A worktree's or
// submodule's .git file names its git directory (gitrepository-layout(5));
// a work tree's .git never comes from a commit (git refuses the name in a
// tree).
func journalPath(root string) (string, error) {
	name := "fix-" + digest([]byte(root))[:16] + ".journal"
	if top := inputfs.RepoRoot(root); top != "" {
		gd, err := gitDir(top)
		if err != nil {
			return "", err
		}
		return filepath.Join(gd, "ckptlint", name), nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("outside a git work tree ckptlint keeps the journal of a fix in the user cache directory, and there is none: %w", err)
	}
	return filepath.Join(cache, "ckptlint-fix", name), nil
}

// gitDir is the git directory of the work tree top: top/.git, or the
// directory its .git file names ("gitdir: <path>", relative to top).
func gitDir(top string) (string, error) {
	marker := filepath.Join(top, ".git")
	st, err := os.Stat(marker)
	if err != nil {
		return "", err
	}
	if st.IsDir() {
		return marker, nil
	}
	b, err := os.ReadFile(marker)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	gd := strings.TrimSpace(strings.TrimPrefix(line, "gitdir:"))
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(top, gd)
	}
	if st, err := os.Stat(gd); err != nil || !st.IsDir() { //nolint:gosec // G703: the .git file of a work tree names its git directory; git trusts it the same way
		return "", fmt.Errorf("%s names the git directory %s, which is not a directory; ckptlint keeps the journal of a fix there", marker, gd)
	}
	return gd, nil
}

// createJournal writes b's journal: the header and one line per entry,
// fsynced with its directory before any staged file exists.
func createJournal(b *boundary, entries []journalEntry) (*journal, error) {
	p := b.journal
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create the journal directory %s: %w", dir, err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("create the journal %s: %w", p, err)
	}
	j := &journal{path: p, f: f}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(journalHeader{Journal: "ckptlint-fix", Version: 1})
	for _, e := range entries {
		_ = enc.Encode(e)
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		j.remove()
		return nil, fmt.Errorf("write the journal %s: %w", p, err)
	}
	if err := errors.Join(f.Sync(), syncDir(dir)); err != nil {
		j.remove()
		return nil, fmt.Errorf("sync the journal %s: %w", p, err)
	}
	return j, nil
}

// commit appends the commit record and fsyncs it.
func (j *journal) commit() error {
	if _, err := j.f.Write([]byte("{\"commit\":true}\n")); err != nil {
		return fmt.Errorf("commit the journal %s: %w", j.path, err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("sync the journal %s: %w", j.path, err)
	}
	return nil
}

// remove closes and deletes the journal and fsyncs its directory.
func (j *journal) remove() {
	j.f.Close()
	os.Remove(j.path)
	_ = syncDir(filepath.Dir(j.path))
}

// readJournal parses a journal. A final line without its newline is a write
// the kill cut short and is ignored (the commit record is only written
// after the entries are synced, so a torn line never follows it).
func readJournal(p string) (entries []journalEntry, committed bool, err error) {
	st, err := os.Lstat(p)
	if err != nil {
		return nil, false, err
	}
	if !st.Mode().IsRegular() {
		return nil, false, fmt.Errorf("%s is not a regular file; ckptlint writes its journal as one", p)
	}
	if st.Size() > maxJournal {
		return nil, false, fmt.Errorf("%s is %d bytes, more than a journal ckptlint writes (at most %d)", p, st.Size(), maxJournal)
	}
	f, err := os.OpenFile(p, os.O_RDONLY|nonBlock|noFollow, 0)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	r := bufio.NewReader(io.LimitReader(f, maxJournal))
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if err == io.EOF {
			return entries, committed, nil // a torn last line, if any, is ignored
		}
		if err != nil {
			return nil, false, err
		}
		bad := func(what string) error {
			return fmt.Errorf("%s:%d: expected %s; this is not a journal ckptlint wrote", p, n, what)
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		switch {
		case n == 1:
			var h journalHeader
			if dec.Decode(&h) != nil || h.Journal != "ckptlint-fix" {
				return nil, false, bad(`{"journal":"ckptlint-fix","version":1}`)
			}
			if h.Version != 1 {
				return nil, false, fmt.Errorf("%s: journal version %d; this ckptlint reads version 1 (use the ckptlint that wrote it)", p, h.Version)
			}
		case committed:
			return nil, false, bad("nothing after the commit record")
		case bytes.HasPrefix(line, []byte(`{"commit"`)):
			var c journalCommit
			if dec.Decode(&c) != nil || !c.Commit {
				return nil, false, bad(`{"commit":true}`)
			}
			committed = true
		default:
			var e journalEntry
			if dec.Decode(&e) != nil || e.Target == "" || e.Staged == "" || e.New == "" {
				return nil, false, bad(`{"target":…,"staged":…,"old":…,"new":…}`)
			}
			entries = append(entries, e)
		}
	}
}

// PendingJournal reports the journal an interrupted write left for the
// boundary root, or "" when there is none. Only the journal in the git
// directory (or the user cache directory) counts: one in the work tree is
// never read (journalPath).
func PendingJournal(root string) string {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return ""
	}
	p, err := journalPath(real)
	if err != nil {
		return ""
	}
	if _, err := os.Lstat(p); err == nil {
		return p
	}
	return ""
}

// recoverJournal finishes or undoes the write an interrupted run left for
// b. Committed, it renames every staged file whose target still has the
// old content (roll forward); not committed, it removes the staged files
// (roll back: no target was touched before the commit). A staged file is
// only touched when the journal lists it, it lies beside its target inside
// b, and it has ckptlint's staged-file name; a target only when its content
// is the journal's old content and the staged file's is the new. A target
// that changed since is left as it is, with a note. Every file is reached
// through b's handle.
func recoverJournal(b *boundary) ([]string, error) {
	p := b.journal
	entries, committed, err := readJournal(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("an interrupted ckptlint fix left a journal it cannot use: %w; check the files it names and delete it (no file was changed)", err)
	}
	r := b.base
	var notes []string
	var dirs []string
	done, removed := 0, 0
	for i, e := range entries {
		// ckptlint journals real paths: a directory that resolves elsewhere
		// (a symlink since) is not one it wrote.
		realDir, derr := filepath.EvalSymlinks(filepath.Dir(e.Target))
		if !inputfs.Within(e.Target, b.path) || filepath.Dir(e.Staged) != filepath.Dir(e.Target) ||
			!isStagedName(filepath.Base(e.Staged), filepath.Base(e.Target)) || filepath.Clean(e.Target) != e.Target ||
			(derr == nil && realDir != filepath.Dir(e.Target)) {
			notes = append(notes, fmt.Sprintf("journal %s: entry %d (%s) is not one ckptlint writes; ignored", p, i+1, e.Target))
			continue
		}
		target, staged := r.rel(e.Target), r.rel(e.Staged)
		stagedOK := e.New != "" && r.hash(staged) == e.New
		if !committed {
			if removeStaged(r, staged) {
				removed++
			}
			continue
		}
		cur := r.hash(target)
		if _, err := r.h.Lstat(target); err == nil && cur == "" {
			cur = "not a regular file"
		}
		switch {
		case cur == e.New:
			if removeStaged(r, staged) {
				removed++
			}
		case cur == e.Old && stagedOK:
			if err := r.h.Rename(staged, target); err != nil {
				return notes, fmt.Errorf("completing the interrupted ckptlint fix: %s: %w (the journal %s stays for the next run)", e.Target, err, p)
			}
			dirs = append(dirs, filepath.Dir(target))
			done++
			testStop("recovery-renamed:" + strconv.Itoa(done))
		default:
			why := "it changed since"
			if cur == e.Old {
				why = "its staged file is missing or incomplete"
			}
			notes = append(notes, fmt.Sprintf("%s: not completed from the interrupted fix (%s); left as it is", e.Target, why))
			if removeStaged(r, staged) {
				removed++
			}
		}
	}
	if err := r.syncDirs(dirs); err != nil {
		return notes, fmt.Errorf("completing the interrupted ckptlint fix: %w (the journal %s stays for the next run)", err, p)
	}
	if err := os.Remove(p); err != nil {
		return notes, fmt.Errorf("remove the journal %s: %w", p, err)
	}
	_ = syncDir(filepath.Dir(p))
	switch {
	case committed:
		notes = append([]string{fmt.Sprintf("completed an interrupted fix (journal %s): %d file(s) replaced, %d staged file(s) removed", p, done, removed)}, notes...)
	default:
		notes = append([]string{fmt.Sprintf("rolled back an interrupted fix (journal %s): no file had been replaced, %d staged file(s) removed", p, removed)}, notes...)
	}
	return notes, nil
}

// removeStaged removes a staged file named by a journal if it is a regular
// file (never a symlink or directory); it reports whether one was removed.
func removeStaged(r *root, rel string) bool {
	st, err := r.h.Lstat(rel)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	return r.h.Remove(rel) == nil
}

// Sweep removes staged files that earlier runs left beside the given
// files (".NAME.ckptlint-<digits>", as every ckptlint version names them)
// when they are provably ckptlint's: a regular file byte-identical to NAME
// as it is now, i.e. a copy of what a fix wrote. Others with such a name are
// left and named in a note. Only directories inside the Writer's roots are
// looked at, through their handles. Call it after Write, under the same
// lock.
func (w *Writer) Sweep(files []string) {
	type dirOf struct {
		b   *boundary
		rel string
	}
	byDir := map[dirOf]map[string]bool{}
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			continue
		}
		d, err := filepath.EvalSymlinks(filepath.Dir(abs))
		if err != nil {
			continue
		}
		i := slices.IndexFunc(w.roots, func(b *boundary) bool { return inputfs.Within(d, b.path) })
		if i < 0 {
			continue // never remove anything outside the boundaries
		}
		k := dirOf{w.roots[i], w.roots[i].base.rel(d)}
		if byDir[k] == nil {
			byDir[k] = map[string]bool{}
		}
		byDir[k][filepath.Base(abs)] = true
	}
	dirs := make([]dirOf, 0, len(byDir))
	for d := range byDir {
		dirs = append(dirs, d)
	}
	slices.SortFunc(dirs, func(a, b dirOf) int { return strings.Compare(a.b.base.abs(a.rel), b.b.base.abs(b.rel)) })
	for _, d := range dirs {
		r := d.b.base
		f, err := r.h.Open(d.rel)
		if err != nil {
			continue
		}
		ents, err := f.ReadDir(-1)
		f.Close()
		if err != nil {
			continue
		}
		slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
		for _, e := range ents {
			name, ok := inputfs.StagedTarget(e.Name())
			if !ok || !byDir[d][name] {
				continue
			}
			rel := filepath.Join(d.rel, e.Name())
			if st, err := r.h.Lstat(rel); err != nil || !st.Mode().IsRegular() {
				continue
			}
			p := r.abs(rel)
			if h := r.hash(rel); h != "" && h == r.hashFollow(filepath.Join(d.rel, name)) && r.h.Remove(rel) == nil {
				w.notes = append(w.notes, fmt.Sprintf("removed %s, a staged copy of %s an interrupted run left", p, name))
				continue
			}
			w.notes = append(w.notes, fmt.Sprintf("left %s: named like a staged file of an interrupted ckptlint fix, but its content differs from %s; delete it if you do not need it", p, name))
		}
	}
}

// hashFollow is hash through a symlink that stays below r.
func (r *root) hashFollow(rel string) string {
	f, err := r.h.OpenFile(rel, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return ""
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return ""
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}
