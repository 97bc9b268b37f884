package config

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFind(t *testing.T) {
	// tree:
	//   outer/.ckptlint.hcl        above the repository: never found from inside
	//   outer/repo/.git/
	//   outer/repo/.ckptlint.hcl
	//   outer/repo/a/b/c/
	//   outer/repo/a/b/.ckptlint.hcl/   a directory, not a config file
	//   outer/repo/x/.ckptlint.hcl
	//   outer/repo/x/y/
	//   outer/other/
	outer := t.TempDir()
	repo := filepath.Join(outer, "repo")
	for _, d := range []string{".git", "a/b/c", "a/b/" + FileName, "x/y"} {
		mkdir(t, filepath.Join(repo, d))
	}
	mkdir(t, filepath.Join(outer, "other"))
	for _, f := range []string{filepath.Join(outer, FileName), filepath.Join(repo, FileName), filepath.Join(repo, "x", FileName)} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name        string
		start, stop string
		want        string // "" for not found
	}{
		{"in start dir", repo, repo, filepath.Join(repo, FileName)},
		{"walks up skipping a directory named like the file", filepath.Join(repo, "a/b/c"), repo, filepath.Join(repo, FileName)},
		{"nearest parent wins", filepath.Join(repo, "x/y"), repo, filepath.Join(repo, "x", FileName)},
		{"stops at stopDir", filepath.Join(repo, "a/b/c"), filepath.Join(repo, "a"), ""},
		{"stopDir itself is searched", filepath.Join(repo, "a/b/c"), filepath.Join(repo, "x/..") /* = repo */, filepath.Join(repo, FileName)},
		{"start outside stopDir is searched alone", filepath.Join(outer, "other"), repo, ""},
		{"start outside stopDir with a file", outer, repo, filepath.Join(outer, FileName)},
		{"empty stopDir walks to the root", filepath.Join(outer, "other"), "", filepath.Join(outer, FileName)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Find(tt.start, tt.stop)
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("Find(%q, %q) = %q, %v; want %q", tt.start, tt.stop, got, ok, tt.want)
			}
		})
	}
}

func TestFindRelative(t *testing.T) {
	dir := t.TempDir()
	mkdir(t, filepath.Join(dir, "sub"))
	if err := os.WriteFile(filepath.Join(dir, FileName), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(dir, "sub"))
	got, ok := Find(".", "..")
	want, _ := filepath.EvalSymlinks(filepath.Join(dir, FileName))
	if g, _ := filepath.EvalSymlinks(got); !ok || g != want {
		t.Errorf("Find(\".\", \"..\") = %q, %v; want %q", got, ok, want)
	}
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}
