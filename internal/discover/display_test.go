package discover

import (
	"testing"

	"github.com/ckptlint/ckptlint/internal/inputfs"
)

// TestDisplayTail: Display's short cut (the tail of a path below the
// working directory, sharing its bytes) gives what filepath.Rel gives.
func TestDisplayTail(t *testing.T) {
	cwds := []string{"/", "/repo", "/repo/", "/repo//sub", "/re", "relative", ""}
	paths := []string{"/repo", "/repo/a", "/repo/a/b.xml", "/repository/a", "/repo/..a/b", "/repo/../x", "/repo//a",
		"/repo/a/", "/other/a", "/", "/a", "relative/a", ""}
	shortcuts := 0
	for _, cwd := range cwds {
		for _, p := range paths {
			d := &Tree{cwd: cwd, fs: inputfs.OS()}
			if got, want := d.Display(p), displayRel(cwd, func() string { return "" }, p); got != want {
				t.Errorf("cwd %q, path %q: Display %q, filepath.Rel gives %q", cwd, p, got, want)
			}
			if _, ok := tailBelow(cwd, p); ok {
				shortcuts++
			}
		}
	}
	if shortcuts < 5 {
		t.Errorf("the short cut was taken %d times", shortcuts)
	}
}

// TestDisplayAbove: a path above the working directory is ../-relative
// when it lies inside the working directory's repository, absolute
// otherwise; "..a" is a name, not a way up.
func TestDisplayAbove(t *testing.T) {
	root := func() string { return "/repo" }
	for _, tt := range []struct{ cwd, p, want string }{
		{"/repo/sub", "/repo/x/flink-conf.yaml", "../x/flink-conf.yaml"},
		{"/repo/sub/deep", "/repo/flink-conf.yaml", "../../flink-conf.yaml"},
		{"/repo/sub", "/other/flink-conf.yaml", "/other/flink-conf.yaml"},
		{"/repo/sub", "/repository/x", "/repository/x"},
		{"/repo", "/repo/..a/b", "..a/b"},
	} {
		if got := displayRel(tt.cwd, root, tt.p); got != tt.want {
			t.Errorf("cwd %s, path %s: %q, want %q", tt.cwd, tt.p, got, tt.want)
		}
	}
	if got := displayRel("/repo/sub", func() string { return "" }, "/repo/x"); got != "/repo/x" {
		t.Errorf("outside a repository: %q, want the absolute path", got)
	}
}
