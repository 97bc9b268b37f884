package flinkconf

import (
	"maps"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/parsed/edittest"
)

// editCase is one operation on one file and the bytes it must give.
type editCase struct {
	name     string
	src      string
	op       string // set, delete, rename
	key, arg string // arg: the value (set) or the new key (rename)
	want     string
	wantErr  error
}

// legacyFile is the file of testConfigurationWithLegacyYAML (Flink 1.20
// GlobalConfigurationTest L45-85).
var legacyFile = strings.Join(legacyLines, "\n") + "\n"

var editCases = []editCase{
	// set, existing key
	{name: "set existing", src: "a.b.c: 1\nx: 2\n", op: "set", key: "a.b.c", arg: "5", want: "a.b.c: 5\nx: 2\n"},
	{name: "set keeps the comment", src: "a: 1   # note\n", op: "set", key: "a", arg: "2 s", want: "a: 2 s   # note\n"},
	{name: "set the same value: no edit", src: "a: 1\n", op: "set", key: "a", arg: "1", want: "a: 1\n"},
	{name: "set changes only the winning duplicate", src: "k: 1\nk: 2\n", op: "set", key: "k", arg: "3", want: "k: 1\nk: 3\n"},
	{name: "set writes quotes raw", src: "a: x\n", op: "set", key: "a", arg: "'y'", want: "a: 'y'\n"},
	{name: "set keeps the spacing around key and value", src: "   mykey5    :    myvalue5    \n", op: "set", key: "mykey5", arg: "v", want: "   mykey5    :    v    \n"},
	// Flink 1.20 GlobalConfigurationTest L45-85: the value before '#'
	{name: "legacy test file: value cut at #", src: legacyFile, op: "set", key: "mykey4", arg: "new",
		want: strings.Replace(legacyFile, "mykey4: myvalue4# some comments", "mykey4: new# some comments", 1)},
	// Flink 1.20 GlobalConfiguration.loadLegacyYAMLResource: mykey9 set twice, the last wins
	{name: "legacy test file: duplicate mykey9", src: legacyFile, op: "set", key: "mykey9", arg: "x",
		want: strings.Replace(legacyFile, "mykey9: myvalue10", "mykey9: x", 1)},
	// Flink 1.20 GlobalConfiguration.loadLegacyYAMLResource: "mykey3:myvalue3" is skipped, so mykey3 is absent and added
	{name: "legacy test file: skipped mykey3 is added", src: legacyFile, op: "set", key: "mykey3", arg: "v3",
		want: legacyFile + "mykey3: v3\n"},

	// set, new key
	{name: "set new key next to related keys", src: "execution.checkpointing.interval: 10s\nstate.backend: rocksdb\n",
		op: "set", key: "execution.checkpointing.min-pause", arg: "30 s",
		want: "execution.checkpointing.interval: 10s\nexecution.checkpointing.min-pause: 30 s\nstate.backend: rocksdb\n"},
	{name: "set new key after the last related key", src: "execution.checkpointing.interval: 1\nexecution.checkpointing.mode: EXACTLY_ONCE\nexecution.runtime-mode: STREAMING\nx: 1\n",
		op: "set", key: "execution.checkpointing.min-pause", arg: "1",
		want: "execution.checkpointing.interval: 1\nexecution.checkpointing.mode: EXACTLY_ONCE\nexecution.checkpointing.min-pause: 1\nexecution.runtime-mode: STREAMING\nx: 1\n"},
	{name: "set new key after the longest shared prefix", src: "state.backend.rocksdb.x: 1\nstate.backend.type: r\n",
		op: "set", key: "state.backend.rocksdb.y", arg: "2",
		want: "state.backend.rocksdb.x: 1\nstate.backend.rocksdb.y: 2\nstate.backend.type: r\n"},
	{name: "set new key, one shared segment is not related", src: "state.x: 1\nother: 2\n", op: "set", key: "state.y", arg: "3",
		want: "state.x: 1\nother: 2\nstate.y: 3\n"},
	{name: "set new key at the end", src: "a: 1\n# trailing comment\n", op: "set", key: "b.c", arg: "2", want: "a: 1\n# trailing comment\nb.c: 2\n"},
	{name: "set new key, no final newline", src: "a: 1", op: "set", key: "b", arg: "2", want: "a: 1\nb: 2"},
	{name: "set new key after a related last line without final newline", src: "x.y.z: 1", op: "set", key: "x.y.w", arg: "2", want: "x.y.z: 1\nx.y.w: 2"},
	{name: "set new key in an empty file", src: "", op: "set", key: "a", arg: "1", want: "a: 1\n"},
	{name: "set new key, lone CR line breaks", src: "a: 1\rb: 2\r", op: "set", key: "c", arg: "3", want: "a: 1\rb: 2\rc: 3\r"},
	{name: "set new key, CRLF without final newline", src: "a: 1\r\nb: 2", op: "set", key: "c", arg: "3", want: "a: 1\r\nb: 2\r\nc: 3"},
	{name: "set after a BOM: the first key holds the BOM, so a is new", src: "\ufeffa: 1\n", op: "set", key: "a", arg: "2", want: "\ufeffa: 1\na: 2\n"},

	// set, refused
	{name: "set refuses #", src: "a: 1\n", op: "set", key: "a", arg: "x#y", wantErr: parsed.ErrCannotRepresent},
	{name: "set refuses a line break", src: "a: 1\n", op: "set", key: "a", arg: "x\ny", wantErr: parsed.ErrCannotRepresent},
	{name: "set refuses a leading blank", src: "a: 1\n", op: "set", key: "a", arg: " x", wantErr: parsed.ErrCannotRepresent},
	{name: "set refuses a trailing tab", src: "a: 1\n", op: "set", key: "a", arg: "x\t", wantErr: parsed.ErrCannotRepresent},
	{name: "set refuses an empty value", src: "a: 1\n", op: "set", key: "a", arg: "", wantErr: parsed.ErrCannotRepresent},
	{name: "set refuses a key with ': '", src: "a: 1\n", op: "set", key: "b: c", arg: "1", wantErr: parsed.ErrCannotRepresent},
	{name: "set refuses invalid UTF-8", src: "a: 1\n", op: "set", key: "a", arg: "caf\xe9", wantErr: parsed.ErrCannotRepresent},

	// delete
	{name: "delete", src: "a: 1\nb: 2\nc: 3\n", op: "delete", key: "b", want: "a: 1\nc: 3\n"},
	{name: "delete keeps the comment above", src: "# about b\nb: 2 # inline\nc: 3\n", op: "delete", key: "b", want: "# about b\nc: 3\n"},
	{name: "delete every duplicate", src: "k: 1\na: 2\nk: 3\n", op: "delete", key: "k", want: "a: 2\n"},
	{name: "delete the last lines, no final newline", src: "a: 1\nk: 2\nk: 3", op: "delete", key: "k", want: "a: 1"},
	{name: "delete the only line", src: "k: 1", op: "delete", key: "k", want: ""},
	{name: "delete, lone CR", src: "a: 1\rk: 2\rc: 3", op: "delete", key: "k", want: "a: 1\rc: 3"},
	{name: "delete the first line takes the BOM with it (it is part of the key)", src: "\ufeffk: 1\nb: 2\n", op: "delete", key: "\ufeffk", want: "b: 2\n"},
	{name: "delete an absent key", src: "a: 1\n", op: "delete", key: "b", wantErr: parsed.ErrNotFound},
	{name: "delete a skipped line's key is absent", src: "mykey3:myvalue3\n", op: "delete", key: "mykey3", wantErr: parsed.ErrNotFound},

	// rename
	{name: "rename", src: "state.backend: rocksdb # fast\n", op: "rename", key: "state.backend", arg: "state.backend.type", want: "state.backend.type: rocksdb # fast\n"},
	{name: "rename every duplicate", src: "k: 1\nk: 2\n", op: "rename", key: "k", arg: "n", want: "n: 1\nn: 2\n"},
	{name: "rename onto a set key", src: "a: 1\nb: 2\n", op: "rename", key: "a", arg: "b", wantErr: parsed.ErrExists},
	{name: "rename an absent key", src: "a: 1\n", op: "rename", key: "b", arg: "c", wantErr: parsed.ErrNotFound},
	{name: "rename to itself", src: "a: 1\n", op: "rename", key: "a", arg: "a", want: "a: 1\n"},
	{name: "rename refuses a bad key", src: "a: 1\n", op: "rename", key: "a", arg: "b#", wantErr: parsed.ErrCannotRepresent},
}

// expected returns what Flink must read after op on a file that reads as
// before.
func expected(before map[string]string, op, key, arg string) map[string]string {
	want := maps.Clone(before)
	switch op {
	case "set":
		want[key] = arg
	case "delete":
		delete(want, key)
	case "rename":
		if v, ok := want[key]; ok {
			delete(want, key)
			want[arg] = v
		}
	}
	return want
}

// format is the legacy flink-conf.yaml for the editor checks of edittest.
var format = edittest.Format[*parsed.File, map[string]string]{
	Reader:   "Flink",
	Parse:    func(src []byte) (*parsed.File, bool) { return Parse("conf/flink-conf.yaml", src), true },
	Err:      func(f *parsed.File) error { return edittest.ParseErr(f.Err) },
	Editor:   NewEditor,
	View:     effectiveOf,
	Expected: expected,
}

func TestEditor(t *testing.T) {
	for _, tc := range editCases {
		edittest.RunRow(t, format, edittest.Row{Name: tc.name, Src: tc.src, Op: tc.op, Key: tc.key, Arg: tc.arg, Want: tc.want, WantErr: tc.wantErr})
	}
}

func TestEditorParseError(t *testing.T) {
	f := Parse("flink-conf.yaml", []byte("a: 1\x00\n"))
	edittest.RefusesAll(t, NewEditor(f), "a", "b")
	if _, err := NewEditor(nil).Set("a", "b"); err == nil {
		t.Error("Set on a nil file: no error")
	}
}

// TestEditorCombined applies the edits of several operations of one
// editor together.
func TestEditorCombined(t *testing.T) {
	src := "execution.checkpointing.interval: 10s\nstate.backend: rocksdb\nold.key: 1\nparallelism.default: 2"
	ed := NewEditor(Parse("flink-conf.yaml", []byte(src)))
	var all []parsed.Edit
	for _, op := range [][3]string{
		{"set", "execution.checkpointing.interval", "1 min"},
		{"set", "execution.checkpointing.min-pause", "30 s"},
		{"rename", "state.backend", "state.backend.type"},
		{"delete", "parallelism.default", ""},
		{"set", "taskmanager.numberOfTaskSlots", "4"},
	} {
		edits, err := edittest.RunOp(ed, op[0], op[1], op[2])
		if err != nil {
			t.Fatalf("%v: %v", op, err)
		}
		all = append(all, edits...)
	}
	out, err := parsed.Apply([]byte(src), all)
	if err != nil {
		t.Fatal(err)
	}
	want := "execution.checkpointing.interval: 1 min\nexecution.checkpointing.min-pause: 30 s\nstate.backend.type: rocksdb\nold.key: 1\ntaskmanager.numberOfTaskSlots: 4"
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
