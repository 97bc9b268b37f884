package flinkconf

import (
	"maps"
	"regexp"
	"strings"
	"testing"
)

func FuzzParse(f *testing.F) {
	f.Add([]byte(strings.Join(legacyLines, "\n") + "\n"))
	for _, s := range []string{
		"", "invalid", "a: b", "a: b\r\nc: d\r\n", "a: b\rc: d", "execution:\n  checkpointing:\n    interval: 10s\n",
		"a: foo#bar", "path: \"hdfs://x/#y\"", "a: 'it''s #1'", "\"k\": \"v\"", "p: [a, b]\nm: {k: v}",
		"\xef\xbb\xbf# c\na: b", "\xef\xbb\xbfa:\n  b: c", "a: caf\xe9", "a: b\x00", "pipeline.jars:\n- a\n- b", "a:b:", " :  ", ": x",
		"\x0ba: b\x0c", "#\n#:\n:#\n: #", "a: \"x\\\" #y\"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file := Parse("flink-conf.yaml", src)
		checkSpans(t, src, file)
		checkComments(t, file)
		for i, e := range file.Entries {
			if e.Key == "" || e.Value == "" || strings.ContainsAny(e.Value, "#\n\r") || strings.ContainsAny(e.Key, "#\n\r") {
				t.Fatalf("entry %d: key %q value %q: Flink never stores such a pair", i, e.Key, e.Value)
			}
		}
		if file.Err != nil {
			if strings.IndexByte(string(src), 0) < 0 {
				t.Fatalf("parse error %v without a NUL byte", file.Err)
			}
			return
		}
		got := map[string]string{}
		for k, e := range file.Effective() {
			got[k] = e.Value
		}
		if want := reference(string(src)); !maps.Equal(got, want) {
			t.Fatalf("Parse sets %q, the line-by-line reference sets %q", got, want)
		}
	})
}

// reference is loadLegacyYAMLResource transcribed with string functions, as
// an oracle independent of Parse's offset arithmetic.
func reference(src string) map[string]string {
	javaTrim := func(s string) string { return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' }) }
	m := map[string]string{}
	for _, line := range regexp.MustCompile("\r\n|\r|\n").Split(src, -1) {
		conf := javaTrim(strings.SplitN(line, "#", 2)[0])
		if conf == "" {
			continue
		}
		kv := strings.SplitN(conf, ": ", 2)
		if len(kv) == 1 {
			continue
		}
		key, value := javaTrim(kv[0]), javaTrim(kv[1])
		if key == "" || value == "" {
			continue
		}
		m[key] = value
	}
	return m
}
