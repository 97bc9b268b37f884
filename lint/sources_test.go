package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ckptlint/ckptlint/lint/model"
	"github.com/ckptlint/ckptlint/lint/parsed"
)

// TestSourcesNoRereadOfRefused (found by a review): a set's file the run
// refused (here as over the run's input budget: parsed with an error and
// no bytes) is not read again for the reporters, whatever is on disk: a
// tree of refused files must not cost their size in memory. A file the
// sets do not hold (an xi:include target) is read.
func TestSourcesNoRereadOfRefused(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, p := range []string{"conf/core-site.xml", "conf/common.xml", "conf/other.xml"} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("<configuration/>\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := &model.Set{Name: "conf", Flink: &parsed.File{Path: "conf/flink-conf.yaml", Src: []byte("a: 1\n")}}
	s.Client = []model.Resource{{File: &parsed.File{Path: "conf/core-site.xml", Format: parsed.HadoopCoreSite,
		Err: &parsed.ParseError{File: "conf/core-site.xml", Msg: "over the run's input budget", Unread: true}}}}
	n := &sourceNotes{}
	if b := n.fileBytes(s, "conf/core-site.xml"); b != nil {
		t.Errorf("a refused file was read again: %q", b)
	}
	if b := n.fileBytes(s, "conf/flink-conf.yaml"); string(b) != "a: 1\n" {
		t.Errorf("a set's file: %q, want its bytes as read", b)
	}
	if b := n.fileBytes(s, "conf/common.xml"); string(b) != "<configuration/>\n" {
		t.Errorf("a file the set does not hold: %q, want it read", b)
	}
}
