package compose

import (
	"os"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// FuzzRead: no compose file, .env or extended file makes the reader
// panic (Read would turn it into a note; this finds them), every Loc
// names a line its file has, and every Exact text keeps the brief's
// contract.
func FuzzRead(f *testing.F) {
	for _, p := range []string{"flink-session/docker-compose.yml", "bde-hadoop/docker-compose.yml", "stack/docker-compose.yml", "hostile/docker-compose.yml"} {
		b, err := os.ReadFile("testdata/" + p)
		if err != nil {
			f.Fatal(err)
		}
		env, _ := os.ReadFile("testdata/stack/.env")
		base, _ := os.ReadFile("testdata/stack/common.yml")
		f.Add(b, env, base)
	}
	f.Add([]byte("services:\n  a:\n    extends: {file: base.yml, service: flink-base}\n    environment:\n      - |\n        FLINK_PROPERTIES=\n        a: 1\n"), []byte("X=${Y:-z}\n"), []byte("services:\n  flink-base: {image: \"flink:${X}\"}\n"))
	f.Fuzz(func(t *testing.T, compose, env, base []byte) {
		r := repo{"repo/docker-compose.yml": compose, "repo/.env": env, "repo/base.yml": base, "repo/common.yml": base,
			"repo/flink.env": env, "repo/hadoop.env": env}
		res := Read("repo/docker-compose.yml", compose, r.read, r.opts())
		for _, n := range res.Notes {
			if strings.Contains(n, "the compose reader failed") {
				t.Fatalf("panic: %s", n)
			}
		}
		check := func(what string, l deploy.Loc) {
			if l.File == "" && l.Line == 0 {
				return
			}
			src, ok := r[l.File]
			if !ok {
				t.Fatalf("%s at %s: not a file of the repository", what, l)
			}
			if l.Line < 1 || l.Line > breaks(src)+1 {
				t.Fatalf("%s at %s: the file has %d lines", what, l, breaks(src)+1)
			}
		}
		for _, w := range res.Workloads {
			check("workload", w.Loc)
			check("role", w.RoleLoc)
			check("replicas", w.ReplicasLoc)
			check("image", w.ImageLoc)
			for _, e := range w.Env {
				check(e.Name, e.Loc)
			}
			for _, m := range w.Mounts {
				check(m.Path, m.Loc)
				check(m.Path, m.Volume.Loc)
			}
		}
		checkTexts(t, r, res)
	})
}
