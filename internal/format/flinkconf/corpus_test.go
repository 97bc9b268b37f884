package flinkconf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/parsed/edittest"
)

// TestParseCorpus runs the parse checks (parseChecks) over every legacy
// flink-conf.yaml of the shared corpus; TestParseRealWorld runs them over
// testdata/realworld from a clone alone.
func TestParseCorpus(t *testing.T) {
	for _, path := range edittest.CorpusFiles(t, "flink-conf") {
		t.Run(filepath.Base(path), func(t *testing.T) { parseChecks(t, path) })
	}
}

// TestParseRealWorld runs the checks of TestParseCorpus over the legacy
// flink-conf.yaml files of testdata/realworld, written for this repository
// (a docker-compose playground and the defaults of the Flink 1.4 and 1.18
// releases), so a clone without ../shared runs them too.
func TestParseRealWorld(t *testing.T) {
	paths, err := filepath.Glob("../../../testdata/realworld/*/flink-conf.yaml")
	if err != nil || len(paths) < 3 {
		t.Fatalf("%d flink-conf.yaml files in testdata/realworld (%v), want at least 3", len(paths), err)
	}
	for _, path := range paths {
		t.Run(filepath.Base(filepath.Dir(path)), func(t *testing.T) { parseChecks(t, path) })
	}
}

// parseChecks parses the file at path: no parse error, at least one entry,
// consistent spans (checkSpans), and, as an independent check, every key
// written once at the start of a line ("key: ...") carries that line's
// number.
func parseChecks(t *testing.T, path string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := Parse(filepath.ToSlash(path), src)
	if f.Err != nil {
		t.Fatalf("Parse: %v", f.Err)
	}
	if len(f.Entries) == 0 {
		t.Fatal("no entries")
	}
	checkSpans(t, src, f)

	count := map[string]int{}
	for _, e := range f.Entries {
		count[e.Key]++
	}
	lines := strings.Split(string(src), "\n")
	checked := 0
	for _, e := range f.Entries {
		if count[e.Key] != 1 {
			continue
		}
		var at []int
		for i, l := range lines {
			if strings.HasPrefix(l, e.Key+":") {
				at = append(at, i+1)
			}
		}
		if len(at) != 1 {
			continue
		}
		if e.KeySpan.Start.Line != at[0] || e.KeySpan.Start.Col != 1 {
			t.Errorf("%q: KeySpan starts at %s, the text search finds line %d", e.Key, e.KeySpan.Start, at[0])
		}
		checked++
	}
	if checked == 0 {
		t.Error("no key could be checked against a text search")
	}
}

func TestParseCorpusFiles(t *testing.T) {
	dir := edittest.CorpusDir(t, "flink-conf")
	tests := []struct {
		name    string
		file    string
		entries int
		want    map[string]string
		notices []string
	}{
		{
			name:    "bigtop ERB template: tags are values",
			file:    "apache__bigtop__bigtop-deploy__puppet__modules__flink__templates__flink-conf.yaml",
			entries: 8,
			want:    map[string]string{"jobmanager.rpc.address": "<%= @jobmanager_host %>", "rest.port": "<%=@rest_port %>"},
		},
		{
			name:    "flink-dist test resource: legacy list and map syntax",
			file:    "apache__flink__flink-dist__src__test__resources__flink-conf.yaml",
			entries: 17,
			want:    map[string]string{"escape.key": "*", "list": "a;b;c", "map": "a:b,c:d", "listMap": "a:b,c:d;e:f"},
		},
		{
			name:    "nexmark: no final newline, $ in values",
			file:    "nexmark__nexmark@f6e085b66b__nexmark-flink__src__main__resources__conf__flink-conf.yaml",
			entries: 22,
			want: map[string]string{
				"execution.checkpointing.checkpoints-after-tasks-finish.enabled": "false",
				"env.java.opts.jobmanager":                                       "-Xloggc:$FLINK_LOG_DIR/jobmanager-gc.log -XX:+UseGCLogFileRotation -XX:NumberOfGCLogFiles=2 -XX:GCLogFileSize=512M",
			},
		},
		{
			name:    "statefun: durations as 5sec",
			file:    "apache__flink-statefun__statefun-e2e-tests__statefun-e2e-tests-common__src__main__resources__flink-conf.yaml",
			entries: 21,
			want:    map[string]string{"execution.checkpointing.interval": "5sec", "state.backend": "rocksdb"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			f := Parse(tt.file, src)
			if f.Err != nil || len(f.Entries) != tt.entries {
				t.Fatalf("Parse: %d entries, err %v; want %d entries", len(f.Entries), f.Err, tt.entries)
			}
			for k, v := range tt.want {
				if e := f.Lookup(k); e == nil || e.Value != v {
					t.Errorf("Lookup(%q) = %+v, want %q", k, e, v)
				}
			}
			for _, n := range f.Notices {
				t.Errorf("unexpected notice %s at %s: %s", n.Code, n.Span.Start, n.Message)
			}
		})
	}
}
