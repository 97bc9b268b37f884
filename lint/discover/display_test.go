package discover

import "testing"

// TestDisplayTail: Display's short cut (the tail of a path below the
// working directory, sharing its bytes) gives what filepath.Rel gives.
func TestDisplayTail(t *testing.T) {
	cwds := []string{"/", "/repo", "/repo/", "/repo//sub", "/re", "relative", ""}
	paths := []string{"/repo", "/repo/a", "/repo/a/b.xml", "/repository/a", "/repo/..a/b", "/repo/../x", "/repo//a",
		"/repo/a/", "/other/a", "/", "/a", "relative/a", ""}
	shortcuts := 0
	for _, cwd := range cwds {
		for _, p := range paths {
			d := &Tree{cwd: cwd}
			if got, want := d.Display(p), displayRel(cwd, p); got != want {
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
