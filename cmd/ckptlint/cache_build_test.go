package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCacheKeyedOnBuildContent: two builds of ckptlint with one version
// string (development builds all say "devel", or the same "+dirty"
// pseudo-version) never share a result cache entry (issue 25: a rule
// message changed in the source was served stale from the entry of the
// build before). The second build is this test binary with another Go build
// ID, as the go command gives every binary it links from other inputs; and,
// for a binary without a build ID of the go command's form, one whose bytes
// differ. A run that misses assembles, which CKPTLINT_TEST_PANIC=assemble
// turns into exit 3; a hit exits 0.
func TestCacheKeyedOnBuildContent(t *testing.T) {
	exe, err := exec.LookPath("ckptlint") // this test binary, as testscript.Main installs it
	if err != nil {
		t.Skip("ckptlint is not on PATH")
	}
	out, err := exec.Command("go", "tool", "buildid", exe).Output()
	if err != nil {
		t.Skipf("go tool buildid: %v", err)
	}
	id := bytes.TrimSpace(out)
	bin, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if len(id) < 20 || !bytes.Contains(bin, id) {
		t.Fatalf("build ID %q not found in %s", id, exe)
	}
	variant := func(name string, b []byte) string {
		p := filepath.Join(t.TempDir(), name, "ckptlint")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	withID := func(newID []byte) []byte {
		if len(newID) != len(id) {
			t.Fatalf("replacement build ID %q has another length", newID)
		}
		return bytes.ReplaceAll(bin, id, newID)
	}
	otherID := bytes.Clone(id)
	if last := &otherID[len(otherID)-1]; *last == 'A' { // one character of the binary's content ID
		*last = 'B'
	} else {
		*last = 'A'
	}
	other := variant("other-build-id", withID(otherID))
	noID := withID(bytes.Repeat([]byte("x"), len(id))) // not the go command's form
	hashed := variant("no-build-id", noID)
	hashedOther := variant("no-build-id-other-bytes", append(bytes.Clone(noID), 0)) // trailing bytes an ELF loader ignores

	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "flink-conf.yaml"), []byte("execution.checkpointing.interval: 10 s\nexecution.checkpointing.timeout: 5 s\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cacheDir := t.TempDir()
	run := func(bin string, assemblePanics bool) int {
		t.Helper()
		cmd := exec.Command(bin, "lint", "--fail-level", "error", ".") // its CKPT501 is a warning
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "CKPTLINT_CACHE_DIR="+cacheDir, "CKPTLINT_TEST_PANIC=")
		if assemblePanics {
			cmd.Env = append(cmd.Env, "CKPTLINT_TEST_PANIC=assemble")
		}
		b, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatalf("%s: %v\n%s", bin, err, b)
		}
		if !strings.Contains(string(b), "CKPT501") {
			t.Fatalf("%s lint: no CKPT501 in\n%s", bin, b)
		}
		return 0
	}
	if code := run(exe, false); code != 0 {
		t.Fatalf("first run: exit %d", code)
	}
	if code := run(exe, true); code != 0 {
		t.Fatalf("the same build again: exit %d, want a cache hit", code)
	}
	if code := run(other, true); code != 3 {
		t.Errorf("a build with another build ID: exit %d, want 3 (a miss: it must not read the first build's entry)", code)
	}
	if code := run(hashed, false); code != 0 {
		t.Fatalf("a build without a go build ID: exit %d", code)
	}
	if code := run(hashed, true); code != 0 {
		t.Errorf("a build without a go build ID, again: exit %d, want a cache hit (its bytes name it)", code)
	}
	if code := run(hashedOther, true); code != 3 {
		t.Errorf("a build without a go build ID whose bytes differ: exit %d, want 3 (a miss)", code)
	}
}
