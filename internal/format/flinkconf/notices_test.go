package flinkconf

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseNotices(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		entries []kv
		notices []note
		message string // substring of the first notice's message
	}{
		// Flink 1.20 GlobalConfiguration.java L236-241: "key:value" lines are skipped
		{name: "missing space", src: "state.backend:rocksdb\n", notices: []note{{NoticeMissingSpace, "state.backend"}},
			message: `write "state.backend: rocksdb"`},
		{name: "tab is not the space Flink splits at", src: "state.backend:\trocksdb\n", notices: []note{{NoticeMissingSpace, "state.backend"}}},
		{name: "URL value without space", src: "fs.default-scheme:hdfs://nn:8020/\n", notices: []note{{NoticeMissingSpace, "fs.default-scheme"}}},
		{name: "no colon", src: "state.backend rocksdb\n", notices: []note{{NoticeNoSeparator, ""}}},
		{name: "empty value with comment", src: "state.backend: # todo\n", notices: []note{{NoticeEmptyValue, "state.backend"}}},
		{name: "key colon at end of file", src: "a: b\nc:", entries: []kv{{"a", "b"}}, notices: []note{{NoticeEmptyValue, "c"}}},
		{name: "header followed by same indentation is an empty value", src: "a:\nb: 1\n", entries: []kv{{"b", "1"}}, notices: []note{{NoticeEmptyValue, "a"}}},
		{name: "YAML key with colon", src: "a:b:\n", notices: []note{{NoticeEmptyValue, "a:b"}}},

		// Flink 1.20 GlobalConfiguration.loadLegacyYAMLResource: nested YAML is not understood
		{name: "nested YAML", src: "execution:\n  checkpointing:\n    interval: 10s\n    mode: EXACTLY_ONCE\nstate.backend: rocksdb\n",
			entries: []kv{{"interval", "10s"}, {"mode", "EXACTLY_ONCE"}, {"state.backend", "rocksdb"}},
			notices: []note{
				{NoticeNestedYAML, "execution"},
				{NoticeNestedYAML, "execution.checkpointing"},
				{NoticeNestedYAML, "execution.checkpointing.interval"},
				{NoticeNestedYAML, "execution.checkpointing.mode"},
			},
			message: `skips "execution:"`},
		{name: "nested child message", src: "execution:\n  checkpointing:\n    interval: 10s\n",
			entries: []kv{{"interval", "10s"}},
			notices: []note{{NoticeNestedYAML, "execution"}, {NoticeNestedYAML, "execution.checkpointing"}, {NoticeNestedYAML, "execution.checkpointing.interval"}}},
		{name: "nested siblings after a deeper block", src: "state:\n  backend:\n    type: rocksdb\n  checkpoints:\n    dir: hdfs:///ck\n",
			entries: []kv{{"type", "rocksdb"}, {"dir", "hdfs:///ck"}},
			notices: []note{
				{NoticeNestedYAML, "state"}, {NoticeNestedYAML, "state.backend"}, {NoticeNestedYAML, "state.backend.type"},
				{NoticeNestedYAML, "state.checkpoints"}, {NoticeNestedYAML, "state.checkpoints.dir"},
			}},
		{name: "nested header without children is an empty value", src: "execution:\n  checkpointing:\nparallelism.default: 2\n",
			entries: []kv{{"parallelism.default", "2"}},
			notices: []note{{NoticeNestedYAML, "execution"}, {NoticeEmptyValue, "execution.checkpointing"}}},
		{name: "nested block sequence", src: "pipeline.jars:\n- a.jar\n- b.jar\n",
			notices: []note{{NoticeNestedYAML, "pipeline.jars"}, {NoticeNoSeparator, ""}, {NoticeNoSeparator, ""}}},
		{name: "indented flat keys are fine", src: "  a: 1\n  b: 2\n", entries: []kv{{"a", "1"}, {"b", "2"}}},
		{name: "comment lines inside a nested block", src: "execution:\n  # the interval\n  checkpointing.interval: 1 min\n",
			entries: []kv{{"checkpointing.interval", "1 min"}},
			notices: []note{{NoticeNestedYAML, "execution"}, {NoticeNestedYAML, "execution.checkpointing.interval"}},
		},

		// Flink 1.20 GlobalConfiguration.loadLegacyYAMLResource: everything after the first '#' is dropped
		{name: "hash inside a word", src: "a: foo#bar\n", entries: []kv{{"a", "foo"}}, notices: []note{{NoticeCommentCut, "a"}},
			message: `"a" is set to "foo" and "#bar" is dropped`},
		{name: "hash inside quotes", src: "path: \"hdfs://x/#y\"\n", entries: []kv{{"path", `"hdfs://x/`}}, notices: []note{{NoticeCommentCut, "path"}}},
		{name: "hash after a space inside quotes", src: "a: \"x #y\"\n", entries: []kv{{"a", `"x`}}, notices: []note{{NoticeCommentCut, "a"}}},
		{name: "hash after a space inside single quotes with escape", src: "a: 'it''s #1'\n", entries: []kv{{"a", "'it''s"}}, notices: []note{{NoticeCommentCut, "a"}}},
		{name: "real comment after a value", src: "key: value # comment\n", entries: []kv{{"key", "value"}}},
		{name: "real comment after a closed quote", src: "key: \"v\" # comment\n", entries: []kv{{"key", `"v"`}}, notices: []note{{NoticeQuotedValue, "key"}}},
		{name: "real comment after a tab", src: "key: v\t# comment\n", entries: []kv{{"key", "v"}}},
		{name: "hash in a key", src: "key#1: v\n", notices: []note{{NoticeNoSeparator, ""}, {NoticeCommentCut, ""}}},

		// Flink 1.20 GlobalConfiguration.loadLegacyYAMLResource: quotes are kept
		{name: "double-quoted value", src: "execution.checkpointing.interval: \"10 s\"\n",
			entries: []kv{{"execution.checkpointing.interval", `"10 s"`}}, notices: []note{{NoticeQuotedValue, "execution.checkpointing.interval"}},
			message: `set to "10 s", quotes included`},
		{name: "single-quoted value", src: "a: 'x'\n", entries: []kv{{"a", "'x'"}}, notices: []note{{NoticeQuotedValue, "a"}}},
		{name: "one quote is not quoted", src: "a: \"x\n", entries: []kv{{"a", `"x`}}},
		{name: "mismatched quotes", src: "a: \"x'\n", entries: []kv{{"a", `"x'`}}},
		{name: "quoted key", src: "\"state.backend\": rocksdb\n", entries: []kv{{`"state.backend"`, "rocksdb"}}, notices: []note{{NoticeQuotedKey, `"state.backend"`}}},

		// Flink 1.20 ConfigurationUtils.java L437-470: legacy list syntax
		{name: "flow list", src: "pipeline.jars: [a.jar, b.jar]\n", entries: []kv{{"pipeline.jars", "[a.jar, b.jar]"}}, notices: []note{{NoticeYAMLList, "pipeline.jars"}}},
		{name: "flow map", src: "m: {k1: v1, k2: v2}\n", entries: []kv{{"m", "{k1: v1, k2: v2}"}}, notices: []note{{NoticeYAMLList, "m"}}},
		{name: "legacy list and map", src: "list: a;b;c\nmap: a:b,c:d\n", entries: []kv{{"list", "a;b;c"}, {"map", "a:b,c:d"}}},
		{name: "legacy list map", src: "listMap: a:b,c:d;e:f\n", entries: []kv{{"listMap", "a:b,c:d;e:f"}}},
		// GlobalConfiguration keeps a value as written: no $VAR expansion, and
		// units are parsed only when an option is read
		{name: "dollar in a value is kept", src: "env.java.opts.jobmanager: -Xloggc:$FLINK_LOG_DIR/jobmanager-gc.log -XX:+UseGCLogFileRotation\n",
			entries: []kv{{"env.java.opts.jobmanager", "-Xloggc:$FLINK_LOG_DIR/jobmanager-gc.log -XX:+UseGCLogFileRotation"}}},
		{name: "duration without a space", src: "execution.checkpointing.interval: 5sec\n", entries: []kv{{"execution.checkpointing.interval", "5sec"}}},
		{name: "no final newline", src: "a: 1\nb: x y", entries: []kv{{"a", "1"}, {"b", "x y"}}},

		// duplicates: the last one wins
		{name: "duplicate", src: "a: 1\nb: 2\na: 3\n", entries: []kv{{"a", "1"}, {"b", "2"}, {"a", "3"}}, notices: []note{{NoticeDuplicateKey, "a"}},
			message: `"a" is set again on line 3; Flink uses the last value ("3") and ignores this one ("1")`},
		{name: "three times", src: "a: 1\na: 2\na: 3\n", entries: []kv{{"a", "1"}, {"a", "2"}, {"a", "3"}}, notices: []note{{NoticeDuplicateKey, "a"}, {NoticeDuplicateKey, "a"}}},
		{name: "nested children collide as top-level keys", src: "a:\n  x: 1\nb:\n  x: 2\n", entries: []kv{{"x", "1"}, {"x", "2"}},
			notices: []note{{NoticeNestedYAML, "a"}, {NoticeNestedYAML, "a.x"}, {NoticeDuplicateKey, "x"}, {NoticeNestedYAML, "b"}, {NoticeNestedYAML, "b.x"}}},

		// Java text reading
		{name: "byte order mark becomes part of the first key", src: "\xef\xbb\xbfa: b\n", entries: []kv{{"\ufeffa", "b"}}, notices: []note{{NoticeBOM, "\ufeffa"}},
			message: `the first key is "\ufeffa", not "a"`},
		{name: "byte order mark before a comment", src: "\xef\xbb\xbf# c\na: b\n", entries: []kv{{"a", "b"}}, notices: []note{{NoticeBOM, ""}}},
		{name: "invalid UTF-8 in a value", src: "a: caf\xe9\n", entries: []kv{{"a", "caf\xe9"}}, notices: []note{{NoticeInvalidUTF8, "a"}}},
		{name: "invalid UTF-8 in a comment is harmless", src: "# caf\xe9\na: b\n", entries: []kv{{"a", "b"}}},
		{name: "lone CR ends a line as in BufferedReader", src: "a: b\rc: d", entries: []kv{{"a", "b"}, {"c", "d"}}},
		{name: "control characters are trimmed like spaces", src: "\x0ba: b\x0c\n", entries: []kv{{"a", "b"}}},
		{name: "no-break space is not trimmed", src: "a: b\u00a0\n", entries: []kv{{"a", "b\u00a0"}}},
		{name: "empty file", src: ""},
		{name: "ERB template line", src: "rest.port: <%=@rest_port %>\n<% if @ha -%>\n", entries: []kv{{"rest.port", "<%=@rest_port %>"}}, notices: []note{{NoticeNoSeparator, ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			entries, notices := entriesOf(t, tt.src)
			if diff := cmp.Diff(tt.entries, entries); diff != "" {
				t.Errorf("entries (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.notices, notices); diff != "" {
				t.Errorf("notices (-want +got):\n%s", diff)
			}
			if tt.message != "" {
				f := Parse("flink-conf.yaml", []byte(tt.src))
				if !strings.Contains(f.Notices[0].Message, tt.message) {
					t.Errorf("message %q does not contain %q", f.Notices[0].Message, tt.message)
				}
			}
		})
	}
}
