package generate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteAllWritesEveryFileAndKeepsModes(t *testing.T) {
	root := t.TempDir()
	a := filepath.Join(root, "a.yaml")
	os.WriteFile(a, []byte("old\n"), 0o600)
	b := filepath.Join(root, "sub", "hdfs-site.xml")
	os.MkdirAll(filepath.Dir(b), 0o755)
	err := WriteAll([]Change{
		{Path: a, Old: []byte("old\n"), New: []byte("new\n"), Mode: 0o600},
		{Path: b, New: []byte("<configuration/>\n")},
	}, root)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(a); string(got) != "new\n" {
		t.Errorf("a = %q", got)
	}
	if st, _ := os.Stat(a); st.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want 0600", st.Mode().Perm())
	}
	if got, _ := os.ReadFile(b); string(got) != "<configuration/>\n" {
		t.Errorf("b = %q", got)
	}
	leftovers, _ := filepath.Glob(filepath.Join(root, ".*ckptlint-*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

// TestWriteAllIsAllOrNothing interrupts a multi-file write: the second file
// cannot be staged (its directory is a regular file), so the first, already
// staged, must not be changed either.
func TestWriteAllIsAllOrNothing(t *testing.T) {
	tests := []struct {
		name   string
		second func(root string) Change
		want   string
	}{
		{"unwritable target", func(root string) Change {
			blocker := filepath.Join(root, "notadir")
			os.WriteFile(blocker, []byte("x"), 0o644)
			return Change{Path: filepath.Join(blocker, "hdfs-site.xml"), New: []byte("x")}
		}, "no file was changed"},
		{"changed on disk", func(root string) Change {
			p := filepath.Join(root, "b.xml")
			os.WriteFile(p, []byte("edited by someone\n"), 0o644)
			return Change{Path: p, Old: []byte("as read\n"), New: []byte("fixed\n")}
		}, "changed on disk since it was read"},
		{"symlink out of the root", func(root string) Change {
			outside := filepath.Join(t.TempDir(), "secret.xml")
			os.WriteFile(outside, []byte("s\n"), 0o644)
			link := filepath.Join(root, "link.xml")
			os.Symlink(outside, link)
			return Change{Path: link, Old: []byte("s\n"), New: []byte("x\n")}
		}, "refusing to write outside"},
		{"not a regular file", func(root string) Change {
			d := filepath.Join(root, "dir.xml")
			os.Mkdir(d, 0o755)
			return Change{Path: d, Old: []byte(""), New: []byte("x\n")}
		}, "not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			a := filepath.Join(root, "a.yaml")
			os.WriteFile(a, []byte("old\n"), 0o644)
			err := WriteAll([]Change{{Path: a, Old: []byte("old\n"), New: []byte("new\n"), Mode: 0o644}, tt.second(root)}, root)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			if got, _ := os.ReadFile(a); string(got) != "old\n" {
				t.Errorf("first file changed to %q", got)
			}
			leftovers, _ := filepath.Glob(filepath.Join(root, ".*ckptlint-*"))
			if len(leftovers) > 0 {
				t.Errorf("temporary files left: %v", leftovers)
			}
		})
	}
}
