package discover

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/ckptlint/ckptlint/internal/benchrepo"
	"github.com/ckptlint/ckptlint/internal/inputfs"
)

// walkOutcome is everything a walk decided, and what its Recorder saw
// (the probes without their stat signatures, which depend on the clock).
type walkOutcome struct {
	Files, Notes, Unread, Leftovers, Sources []string
	Probes                                   []string
}

func walkRecorded(t *testing.T, prefetch bool, paths []string, opts Options) walkOutcome {
	t.Helper()
	defer func(old bool) { prefetchOn = old }(prefetchOn)
	prefetchOn = prefetch
	var out walkOutcome
	rec := inputfs.Record(inputfs.OS())
	opts.FS = rec
	opts.Note = func(s string) { out.Notes = append(out.Notes, s) }
	d, err := Walk(paths, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range d.Paths() {
		f := d.Get(p)
		msg := ""
		if f.Err != nil {
			msg = f.Err.Error()
		}
		out.Files = append(out.Files, fmt.Sprintf("%s real=%s fmt=%v len=%d src=%q err=%s", f.Disp, f.Real, f.Format, len(f.Src), f.Src, msg))
	}
	for _, s := range d.Sources() {
		out.Sources = append(out.Sources, fmt.Sprintf("%s %s %q", s.Disp, s.Kind, s.Src))
	}
	out.Unread, out.Leftovers = d.Unread(), d.Leftovers()
	for _, pr := range rec.Probes() {
		out.Probes = append(out.Probes, pr.Op+" "+pr.Path+" "+pr.Result)
	}
	return out
}

// TestPrefetchSameWalk: a walk with the prefetcher finds, notes, refuses
// (the budget charged in walk order) and records exactly what the serial
// walk does, on a tree of every kind of entry visit tells apart: skipped
// and ignored directories, symlinks inside and outside the repository, a
// dangling link, a FIFO, an unreadable directory (unless run as root), a
// deployment file, a
// fix leftover, files the budget refuses.
func TestPrefetchSameWalk(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	write := func(rel, s string) {
		p := filepath.Join(base, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	conf := "execution.checkpointing.interval: 1 min\n# " + strings.Repeat("x", 900) + "\n"
	for i := range 12 {
		write(fmt.Sprintf("repo/sets/s%02d/flink-conf.yaml", i), conf)
		write(fmt.Sprintf("repo/sets/s%02d/core-site.xml", i), "<configuration><property><name>fs.defaultFS</name><value>hdfs://nn</value></property></configuration>\n")
	}
	write("repo/vendor/flink-conf.yaml", conf)
	write("repo/node_modules/x/flink-conf.yaml", conf)
	write("repo/legacy/flink-conf.yaml", conf)
	write("repo/app/docker-compose.yml", "services:\n  jm:\n    image: flink:1.18\n")
	write("repo/app/notes.txt", "not read\n")
	write("repo/app/.flink-conf.yaml.ckptlint-123", "x: 1\n")
	write("outside/flink-conf.yaml", "secret: 1\n")
	write("repo/locked/flink-conf.yaml", conf)
	links := map[string]string{"repo/in/flink-conf.yaml": "../sets/s00/flink-conf.yaml", "repo/out/flink-conf.yaml": "../../outside/flink-conf.yaml",
		"repo/dangling/flink-conf.yaml": "missing.yaml", "repo/dirlink": "sets"}
	for l, target := range links {
		p := filepath.Join(base, l)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(repo, "app", "flink-conf.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	locked := filepath.Join(repo, "locked")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	defer func(old int64) { runInputBudget = old }(runInputBudget)
	runInputBudget = 12000 // some of the sets' files are refused
	opts := Options{Ignored: func(p string) bool { return strings.Contains(p, "legacy") }}
	serial, pre := walkRecorded(t, false, []string{repo}, opts), walkRecorded(t, true, []string{repo}, opts)
	if len(serial.Unread) == 0 || len(serial.Notes) == 0 {
		t.Fatalf("the tree exercises no budget refusal or note: %+v", serial)
	}
	compareOutcomes(t, serial, pre)
	// With every read past the byte bound, workers read only what the
	// walk waits for.
	defer func(old int64) { prefetchBytes = old }(prefetchBytes)
	prefetchBytes = 1
	compareOutcomes(t, serial, walkRecorded(t, true, []string{repo}, opts))
}

// TestPrefetchSameWalkBenchRepo compares the walks on the generated tree
// of the benchmark (bench/run.sh), two roots given.
func TestPrefetchSameWalkBenchRepo(t *testing.T) {
	dir := t.TempDir()
	if err := benchrepo.WriteMixed(dir, 60); err != nil {
		t.Fatal(err)
	}
	paths := []string{dir, dir}
	compareOutcomes(t, walkRecorded(t, false, paths, Options{}), walkRecorded(t, true, paths, Options{}))
}

func compareOutcomes(t *testing.T, serial, pre walkOutcome) {
	t.Helper()
	v1, v2 := reflect.ValueOf(serial), reflect.ValueOf(pre)
	for i := range v1.NumField() {
		a, b := v1.Field(i).Interface().([]string), v2.Field(i).Interface().([]string)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s differ:\nserial:   %q\nprefetch: %q", v1.Type().Field(i).Name, a, b)
		}
	}
}

// BenchmarkWalk times discovery alone, serial and with the prefetcher, on
// the tree CKPTLINT_WALK_DIR names (a tree of bench/run.sh:
// go run ./internal/benchrepo/gen.go -n 2000 DIR); skipped without it.
func BenchmarkWalk(b *testing.B) {
	dir := os.Getenv("CKPTLINT_WALK_DIR")
	if dir == "" {
		b.Skip("CKPTLINT_WALK_DIR is not set")
	}
	for _, on := range []bool{false, true} {
		b.Run(fmt.Sprintf("prefetch=%v", on), func(b *testing.B) {
			defer func(old bool) { prefetchOn = old }(prefetchOn)
			prefetchOn = on
			for b.Loop() {
				if _, err := Walk([]string{dir}, Options{FS: inputfs.Record(inputfs.OS())}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
