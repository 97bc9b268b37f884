package flinkconf

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// kv is an entry reduced to what Flink stores.
type kv struct{ Key, Value string }

// note is a notice reduced to its code and key.
type note struct{ Code, Key string }

func entriesOf(t *testing.T, src string) ([]kv, []note) {
	t.Helper()
	f := Parse("conf/flink-conf.yaml", []byte(src))
	if f.Err != nil {
		t.Fatalf("Parse: unexpected error %v", f.Err)
	}
	checkSpans(t, []byte(src), f)
	var kvs []kv
	for _, e := range f.Entries {
		kvs = append(kvs, kv{e.Key, e.Value})
	}
	var notes []note
	for _, n := range f.Notices {
		notes = append(notes, note{n.Code, n.Key})
	}
	return kvs, notes
}

// legacyLines is the file testConfigurationWithLegacyYAML writes, one
// PrintWriter.println per element (Flink 1.20 GlobalConfigurationTest
// L45-85; the same lines in F2.0 ConfigurationFileMigrationUtilsTest L37-77).
var legacyLines = []string{
	"###########################",
	"# Some : comments : to skip",
	"###########################",
	"mykey1: myvalue1",
	"mykey2       : myvalue2",
	"mykey3:myvalue3",
	" some nonsense without colon and whitespace separator",
	" :  ",
	"   ",
	" ",
	"mykey4: myvalue4# some comments",
	"   mykey5    :    myvalue5    ",
	"mykey6: my: value6",
	"mykey7: ",
	": myvalue8",
	"mykey9: myvalue9",
	"mykey9: myvalue10",
}

func TestParseGlobalConfigurationTest(t *testing.T) {
	// Each row of Flink 1.20 GlobalConfigurationTest testConfigurationWithLegacyYAML
	// (L45-85), as a file of its own.
	tests := []struct {
		name    string
		src     string
		entries []kv
		notices []note
	}{
		{name: "L45-85 hash line skipped", src: "###########################\n"},
		{name: "L45-85 comment with colons skipped", src: "# Some : comments : to skip\n"},
		{name: "L45-85 mykey1 simple", src: "mykey1: myvalue1\n", entries: []kv{{"mykey1", "myvalue1"}}},
		{name: "L45-85 mykey2 space before colon", src: "mykey2       : myvalue2\n", entries: []kv{{"mykey2", "myvalue2"}}},
		{name: "L45-85 mykey3 missing space skipped", src: "mykey3:myvalue3\n", notices: []note{{NoticeMissingSpace, "mykey3"}}},
		{name: "L45-85 nonsense skipped", src: " some nonsense without colon and whitespace separator\n", notices: []note{{NoticeNoSeparator, ""}}},
		{name: "L45-85 colon only skipped", src: " :  \n", notices: []note{{NoticeEmptyKey, ""}}},
		{name: "L45-85 blank skipped silently", src: "   \n"},
		{name: "L45-85 one space skipped silently", src: " \n"},
		{name: "L45-85 mykey4 comment cut", src: "mykey4: myvalue4# some comments\n", entries: []kv{{"mykey4", "myvalue4"}}, notices: []note{{NoticeCommentCut, "mykey4"}}},
		{name: "L45-85 mykey5 trimmed", src: "   mykey5    :    myvalue5    \n", entries: []kv{{"mykey5", "myvalue5"}}},
		{name: "L45-85 mykey6 first separator only", src: "mykey6: my: value6\n", entries: []kv{{"mykey6", "my: value6"}}},
		{name: "L45-85 mykey7 no value skipped", src: "mykey7: \n", notices: []note{{NoticeEmptyValue, "mykey7"}}},
		{name: "L45-85 myvalue8 no key skipped", src: ": myvalue8\n", notices: []note{{NoticeEmptyKey, ""}}},
		{name: "L45-85 mykey9 last wins", src: "mykey9: myvalue9\nmykey9: myvalue10\n",
			entries: []kv{{"mykey9", "myvalue9"}, {"mykey9", "myvalue10"}}, notices: []note{{NoticeDuplicateKey, "mykey9"}}},
		// Flink 1.20 GlobalConfigurationTest testInvalidLegacyYamlFile L159-170
		{name: "L159-170 invalid loads without error", src: "invalid", notices: []note{{NoticeNoSeparator, ""}}},
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
		})
	}
}

func TestParseGlobalConfigurationTestWholeFile(t *testing.T) {
	// Flink 1.20 GlobalConfigurationTest L45-85: "keySet() hasSize(6)"
	src := strings.Join(legacyLines, "\n") + "\n"
	f := Parse("flink-conf.yaml", []byte(src))
	checkSpans(t, []byte(src), f)
	got := map[string]string{}
	for k, e := range f.Effective() {
		got[k] = e.Value
	}
	want := map[string]string{
		"mykey1": "myvalue1", "mykey2": "myvalue2", "mykey4": "myvalue4",
		"mykey5": "myvalue5", "mykey6": "my: value6", "mykey9": "myvalue10",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("effective configuration (-want +got):\n%s", diff)
	}
	if e := f.Lookup("mykey9"); e == nil || e.Value != "myvalue10" || e.KeySpan.Start.Line != 17 {
		t.Errorf("Lookup(mykey9) = %+v, want myvalue10 from line 17", e)
	}
	var codes []string
	for _, n := range f.Notices {
		codes = append(codes, n.Code)
	}
	wantCodes := []string{NoticeMissingSpace, NoticeNoSeparator, NoticeEmptyKey, NoticeCommentCut, NoticeEmptyValue, NoticeEmptyKey, NoticeDuplicateKey}
	if diff := cmp.Diff(wantCodes, codes); diff != "" {
		t.Errorf("notice codes in file order (-want +got):\n%s", diff)
	}
}
