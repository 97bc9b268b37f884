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

	"github.com/ckptlint/ckptlint/lint/inputfs"
)

// journalName is the journal's file name at a boundary root.
const journalName = ".ckptlint-fix.journal"

// maxJournal bounds the journal a run reads (a journal is a few hundred
// bytes per file written; one in a repository may come from anyone).
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

// createJournal writes root's journal: the header and one line per entry,
// fsynced with its directory before any staged file exists.
func createJournal(root string, entries []journalEntry) (*journal, error) {
	p := filepath.Join(root, journalName)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("create the journal %s: %w", p, err)
	}
	j := &journal{path: p, f: f}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(journalHeader{Journal: "ckptlint-fix", Version: 1})
	for _, e := range entries {
		_ = enc.Encode(e)
	}
	if _, err := f.Write(b.Bytes()); err != nil {
		j.remove()
		return nil, fmt.Errorf("write the journal %s: %w", p, err)
	}
	if err := errors.Join(f.Sync(), syncDir(root)); err != nil {
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
	f, err := os.Open(p)
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

// PendingJournal reports the journal an interrupted write left at root, or
// "" when there is none.
func PendingJournal(root string) string {
	p := filepath.Join(root, journalName)
	if _, err := os.Lstat(p); err == nil {
		return p
	}
	return ""
}

// recoverJournal finishes or undoes the write an interrupted run left at
// root. Committed, it renames every staged file whose target still has the
// old content (roll forward); not committed, it removes the staged files
// (roll back: no target was touched before the commit). A staged file is
// only touched when the journal lists it, it lies beside its target inside
// root, and it has ckptlint's staged-file name; a target only when its
// content is the journal's old content and the staged file's is the new.
// A target that changed since is left as it is, with a note.
func recoverJournal(root string) ([]string, error) {
	p := filepath.Join(root, journalName)
	entries, committed, err := readJournal(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("an interrupted ckptlint fix left a journal it cannot use: %w; check the files it names and delete it (no file was changed)", err)
	}
	var notes []string
	var dirs []string
	done, removed := 0, 0
	for i, e := range entries {
		// ckptlint journals real paths: a directory that resolves elsewhere
		// (a symlink committed since) is not one it wrote.
		realDir, derr := filepath.EvalSymlinks(filepath.Dir(e.Target))
		if !inputfs.Within(e.Target, root) || filepath.Dir(e.Staged) != filepath.Dir(e.Target) ||
			!isStagedName(filepath.Base(e.Staged), filepath.Base(e.Target)) || filepath.Clean(e.Target) != e.Target ||
			(derr == nil && realDir != filepath.Dir(e.Target)) {
			notes = append(notes, fmt.Sprintf("journal %s: entry %d (%s) is not one ckptlint writes; ignored", p, i+1, e.Target))
			continue
		}
		stagedOK := hashIs(e.Staged, e.New)
		if !committed {
			if removeStaged(e.Staged) {
				removed++
			}
			continue
		}
		cur := hashOf(e.Target)
		if _, err := os.Lstat(e.Target); err == nil && cur == "" {
			cur = "not a regular file"
		}
		switch {
		case cur == e.New:
			if removeStaged(e.Staged) {
				removed++
			}
		case cur == e.Old && stagedOK:
			if err := os.Rename(e.Staged, e.Target); err != nil {
				return notes, fmt.Errorf("completing the interrupted ckptlint fix: %s: %w (the journal %s stays for the next run)", e.Target, err, p)
			}
			dirs = append(dirs, filepath.Dir(e.Target))
			done++
			testStop("recovery-renamed:" + strconv.Itoa(done))
		default:
			why := "it changed since"
			if cur == e.Old {
				why = "its staged file is missing or incomplete"
			}
			notes = append(notes, fmt.Sprintf("%s: not completed from the interrupted fix (%s); left as it is", e.Target, why))
			if removeStaged(e.Staged) {
				removed++
			}
		}
	}
	if err := syncDirs(dirs); err != nil {
		return notes, fmt.Errorf("completing the interrupted ckptlint fix: %w (the journal %s stays for the next run)", err, p)
	}
	if err := os.Remove(p); err != nil {
		return notes, fmt.Errorf("remove the journal %s: %w", p, err)
	}
	_ = syncDir(root)
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
func removeStaged(p string) bool {
	st, err := os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	return os.Remove(p) == nil
}

// hashOf is the SHA-256 of the regular file at p, "" when there is none.
func hashOf(p string) string {
	st, err := os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() {
		return ""
	}
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// hashIs reports whether the regular file at p has the SHA-256 want.
func hashIs(p, want string) bool {
	return want != "" && hashOf(p) == want
}

// Sweep removes staged files that earlier runs left beside the given
// files (".NAME.ckptlint-<digits>", as every ckptlint version names them)
// when they are provably ckptlint's: a regular file byte-identical to NAME
// as it is now, i.e. a copy of what a fix wrote. Others with such a name are
// left and named in a note. Only directories inside the Writer's roots are
// looked at. Call it after Write, under the same lock.
func (w *Writer) Sweep(files []string) {
	byDir := map[string]map[string]bool{}
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			continue
		}
		d, err := filepath.EvalSymlinks(filepath.Dir(abs))
		if err != nil || !slices.ContainsFunc(w.roots, func(r string) bool { return inputfs.Within(d, r) }) {
			continue // never remove anything outside the boundaries
		}
		if byDir[d] == nil {
			byDir[d] = map[string]bool{}
		}
		byDir[d][filepath.Base(abs)] = true
	}
	dirs := make([]string, 0, len(byDir))
	for d := range byDir {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	for _, d := range dirs {
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			name, ok := stagedTarget(e.Name(), byDir[d])
			if !ok {
				continue
			}
			p := filepath.Join(d, e.Name())
			if st, err := os.Lstat(p); err != nil || !st.Mode().IsRegular() {
				continue
			}
			if sameContent(p, filepath.Join(d, name)) && os.Remove(p) == nil {
				w.notes = append(w.notes, fmt.Sprintf("removed %s, a staged copy of %s an interrupted run left", p, name))
				continue
			}
			w.notes = append(w.notes, fmt.Sprintf("left %s: named like a staged file of an interrupted ckptlint fix, but its content differs from %s; delete it if you do not need it", p, name))
		}
	}
}

// stagedTarget returns the name among names that base is a staged file of.
func stagedTarget(base string, names map[string]bool) (string, bool) {
	for n := range names {
		if isStagedName(base, n) {
			return n, true
		}
	}
	return "", false
}

// sameContent reports whether the regular files a and b hold the same bytes.
func sameContent(a, b string) bool {
	sa, err1 := os.Lstat(a)
	sb, err2 := os.Stat(b)
	if err1 != nil || err2 != nil || !sb.Mode().IsRegular() || sa.Size() != sb.Size() {
		return false
	}
	return hashOf(a) != "" && hashOf(a) == hashOfFollow(b)
}

// hashOfFollow is hashOf through a symlink.
func hashOfFollow(p string) string {
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return hashOf(real)
	}
	return ""
}
