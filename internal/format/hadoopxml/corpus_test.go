package hadoopxml

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/parsed/edittest"
)

// corpusPaths lists the core-site and hdfs-site files of the corpus, or
// skips the test when there are none.
func corpusPaths(t *testing.T) []string {
	t.Helper()
	dir := edittest.CorpusDir(t, "")
	var paths []string
	for _, sub := range []string{"core-site", "hdfs-site"} {
		m, err := filepath.Glob(filepath.Join(dir, sub, "*"))
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	if len(paths) == 0 {
		t.Skip("skipping: corpus has no core-site/hdfs-site files")
	}
	return paths
}

// corpusFailures lists the corpus files that must be a ParseError, why, and
// where. Everything else in core-site/ and hdfs-site/ must parse.
var corpusFailures = map[string]struct {
	line int
	msg  string
}{
	// Puppet ERB templates: "<% ... -%>" at line 19 is not XML until
	// rendered (Woodstox: Unexpected character '%' (code 37) in prolog, after '<').
	"apache__bigtop__bigtop-deploy__puppet__modules__hadoop__templates__core-site.xml": {19, "expected element name after <"},
	"apache__bigtop__bigtop-deploy__puppet__modules__hadoop__templates__hdfs-site.xml": {19, "expected element name after <"},
	// Two spaces precede "<?xml": Hadoop's parser refuses it too (Woodstox:
	// Illegal processing instruction target ("xml")).
	"GUNDUPOOJA__hadoop-installation__etc__hadoop__core-site.xml": {1, "XML declaration allowed only at the start"},
	// Not listed on purpose: hdfs-site.malformed.xml is well-formed XML (it
	// is "malformed" only in its values' surrounding spaces, HDFS-7684) and
	// core-site.xml.template is a plain configuration with a HOSTNAME
	// placeholder; both parse.
}

func TestCorpus(t *testing.T) {
	paths := corpusPaths(t)
	seenFailures := 0
	for _, p := range paths {
		base := filepath.Base(p)
		t.Run(base, func(t *testing.T) {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			read := func(name string) ([]byte, error) { return os.ReadFile(filepath.FromSlash(name)) }
			d := ParseDoc(filepath.ToSlash(p), src, Options{ReadFile: read})
			if want, ok := corpusFailures[base]; ok {
				seenFailures++
				if d.Err == nil || d.Err.Pos.Line != want.line || !strings.Contains(d.Err.Msg, want.msg) {
					t.Fatalf("error = %v, want line %d containing %q", d.Err, want.line, want.msg)
				}
				return
			}
			if d.Err != nil {
				t.Fatalf("unexpected error: %v", d.Err)
			}
			checkEntries(t, d, src)
		})
	}
	if seenFailures != len(corpusFailures) {
		t.Errorf("saw %d of the %d expected failures; corpus changed?", seenFailures, len(corpusFailures))
	}
}

// TestCorpusSamples pins a few values Hadoop would read from the corpus.
func TestCorpusSamples(t *testing.T) {
	dir := edittest.CorpusDir(t, "")
	tests := []struct {
		file, key, want string
		line            int
		codes           []string // codes that must be among the notices
	}{
		// HDFS-7684 test file: values keep their spaces
		{file: "hdfs-site/1131103319__hadoop-3.4.1-src__hadoop-hdfs-project__hadoop-hdfs__src__test__resources__hdfs-site.malformed.xml",
			key: "dfs.namenode.backup.http-address", want: "  0.0.0.0:50105  ", line: 107},
		// dfs.datanode.data.dir.perm 750 then 700: Hadoop keeps 700 (SOURCES.md)
		{file: "hdfs-site/apache__flink__flink-end-to-end-tests__test-scripts__docker-hadoop-secure-cluster__hadoop__config__hdfs-site.xml",
			key: "dfs.datanode.data.dir.perm", want: "700", codes: []string{NoticeDuplicateKey}},
		// ambari HDP 1.3.2: duplicate dfs.namenode.handler.count 40/100, legacy dfs.block.size
		{file: "hdfs-site/apache__ambari@32e003998e__ambari-server__src__main__resources__stacks__HDP__1.3.2__services__HDFS__configuration__hdfs-site.xml",
			key: "dfs.namenode.handler.count", want: "100", line: 257, codes: []string{NoticeDuplicateKey, NoticeDeprecatedKey, NoticeEmptyValue}},
		{file: "hdfs-site/apache__ambari@32e003998e__ambari-server__src__main__resources__stacks__HDP__1.3.2__services__HDFS__configuration__hdfs-site.xml",
			key: "dfs.blocksize", want: "134217728", line: 164},
		// bigtop secure: ${dfs.namenode.keytab.file} resolved within the file
		{file: "hdfs-site/apache__bigtop__bigtop-packages__src__common__hadoop__conf.secure__hdfs-site.xml",
			key: "dfs.datanode.keytab.file", want: "/var/local/hadoop/hdfs.keytab"},
		// legacy fs.default.name maps to fs.defaultFS
		{file: "core-site/kt-chan__hadoop-2.7.1-winx64__etc__hadoop__core-site.xml",
			key: "fs.defaultFS", want: "hdfs://0.0.0.0:19000", codes: []string{NoticeDeprecatedKey}},
		// XInclude of a missing auth-keys.xml with an empty fallback
		{file: "core-site/1131103319__hadoop-3.4.1-src__hadoop-tools__hadoop-aws__src__test__resources__core-site.xml",
			key: "virginia.endpoint", want: "s3.amazonaws.com"},
		{file: "core-site/sequenceiq__hadoop-docker__core-site.xml.template",
			key: "fs.defaultFS", want: "hdfs://HOSTNAME:9000", line: 3},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.file)+"/"+tt.key, func(t *testing.T) {
			p := filepath.Join(dir, tt.file)
			src, err := os.ReadFile(p)
			if errors.Is(err, fs.ErrNotExist) {
				t.Skipf("skipping: %s not in the corpus", tt.file)
			}
			if err != nil {
				t.Fatal(err)
			}
			read := func(name string) ([]byte, error) { return os.ReadFile(filepath.FromSlash(name)) }
			f := Parse(filepath.ToSlash(p), src, Options{ReadFile: read})
			if f.Err != nil {
				t.Fatal(f.Err)
			}
			e := f.Lookup(tt.key)
			if e == nil || e.Value != tt.want {
				t.Fatalf("Lookup(%q) = %+v, want %q", tt.key, e, tt.want)
			}
			if tt.line != 0 && e.KeySpan.Start.Line != tt.line {
				t.Errorf("key on line %d, want %d", e.KeySpan.Start.Line, tt.line)
			}
			have := map[string]bool{}
			for _, n := range f.Notices {
				have[n.Code] = true
			}
			for _, c := range tt.codes {
				if !have[c] {
					t.Errorf("no %s notice", c)
				}
			}
		})
	}
}

func lineNumbers(src []byte, needle string) []int {
	var out []int
	for i, l := range bytes.Split(src, []byte("\n")) {
		if bytes.Contains(l, []byte(needle)) {
			out = append(out, i+1)
		}
	}
	return out
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// checkEntries checks that every entry's key and value spans hold the text
// the entry was read from and that each key sits on a line where a text
// search finds it.
func checkEntries(t *testing.T, d *Doc, src []byte) {
	t.Helper()
	checkSpansConsistent(t, d)
	for _, e := range d.Entries {
		if e.File != d.Path {
			continue
		}
		written := e.Key
		if e.WrittenKey != "" {
			written = e.WrittenKey
		}
		want := lineNumbers(src, "<name>"+written+"</name>")
		if len(want) > 0 && !contains(want, e.KeySpan.Start.Line) {
			t.Errorf("%q: key on line %d, text search finds it on %v", written, e.KeySpan.Start.Line, want)
		}
		if got := strings.TrimSpace(string(src[e.KeySpan.Start.Offset:e.KeySpan.End.Offset])); got != written {
			t.Errorf("%q: key span holds %q", written, got)
		}
		raw := e.Value
		if e.Raw != "" {
			raw = e.Raw
		}
		vtext := string(src[e.ValueSpan.Start.Offset:e.ValueSpan.End.Offset])
		if !strings.ContainsAny(vtext, "&<\r") && vtext != raw {
			t.Errorf("%q: value span holds %q, entry has %q", written, vtext, raw)
		}
	}
}

// TestRealWorldSpans runs the span checks of TestCorpus over the Hadoop XML
// files of testdata/realworld, written for this repository, so a clone
// without ../shared checks them too.
func TestRealWorldSpans(t *testing.T) {
	paths, err := filepath.Glob("../../../testdata/realworld/*/*.xml")
	if err != nil || len(paths) < 3 {
		t.Fatalf("%d Hadoop XML files in testdata/realworld (%v), want at least 3", len(paths), err)
	}
	for _, p := range paths {
		t.Run(filepath.Base(filepath.Dir(p))+"/"+filepath.Base(p), func(t *testing.T) {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			d := ParseDoc(filepath.ToSlash(p), src, Options{})
			if d.Err != nil {
				t.Fatalf("unexpected error: %v", d.Err)
			}
			if len(d.Entries) < 5 {
				t.Errorf("%d entries, want the file's properties", len(d.Entries))
			}
			checkEntries(t, d, src)
		})
	}
}
