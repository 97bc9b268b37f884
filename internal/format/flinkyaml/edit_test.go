package flinkyaml

import (
	"maps"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/parsed/edittest"
)

// editCase is one operation on one file and the bytes it must give. With
// dep >= 0 the file is a manifest and the operation applies to its dep-th
// FlinkDeployment; otherwise it is a config.yaml.
type editCase struct {
	name     string
	src      string
	dep      int
	op       string // set, delete, rename
	key, arg string // arg: the value (set) or the new key (rename)
	want     string
	wantErr  error
}

// manifest wraps lines of spec (indented by two spaces) in a
// FlinkDeployment document.
func manifest(spec ...string) string {
	return "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata:\n  name: job\nspec:\n" +
		strings.Join(spec, "\n") + "\n"
}

var configEditCases = []editCase{
	// set, existing key
	{name: "set existing", src: "a.b: x\nc: 1\n", op: "set", key: "a.b", arg: "new", want: "a.b: new\nc: 1\n"},
	{name: "set keeps single quotes and the comment", src: "a: 'x'   # note\n", op: "set", key: "a", arg: "new", want: "a: 'new'   # note\n"},
	{name: "set keeps double quotes", src: "a: \"x\"\n", op: "set", key: "a", arg: `it's "q"`, want: "a: \"it's \\\"q\\\"\"\n"},
	{name: "set leaves single quotes a value needs escapes for", src: "a: 'x'\n", op: "set", key: "a", arg: "x\ny", want: "a: \"x\\ny\"\n"},
	{name: "set quotes y (a YAML 1.1 bool)", src: "a: x\n", op: "set", key: "a", arg: "y", want: "a: 'y'\n"},
	{name: "set an int stays an int", src: "n: 1\n", op: "set", key: "n", arg: "20", want: "n: 20\n"},
	{name: "set a quoted int stays a string", src: "n: '1'\n", op: "set", key: "n", arg: "2", want: "n: '2'\n"},
	{name: "set a bool stays a bool", src: "b: true\n", op: "set", key: "b", arg: "false", want: "b: false\n"},
	{name: "set a quoted bool stays a string", src: "b: 'true'\n", op: "set", key: "b", arg: "false", want: "b: 'false'\n"},
	{name: "set a number into a string key", src: "a: abc\n", op: "set", key: "a", arg: "5", want: "a: '5'\n"},
	{name: "set a non-canonical int is a string", src: "n: 1\n", op: "set", key: "n", arg: "010", want: "n: '010'\n"},
	{name: "set quotes yes", src: "a: x\n", op: "set", key: "a", arg: "yes", want: "a: 'yes'\n"},
	{name: "set quotes null", src: "a: x\n", op: "set", key: "a", arg: "null", want: "a: 'null'\n"},
	{name: "set quotes ~", src: "a: x\n", op: "set", key: "a", arg: "~", want: "a: '~'\n"},
	{name: "set quotes a float", src: "a: x\n", op: "set", key: "a", arg: "1.5", want: "a: '1.5'\n"},
	{name: "set quotes base 60", src: "a: x\n", op: "set", key: "a", arg: "1:20", want: "a: '1:20'\n"},
	{name: "set quotes a date", src: "a: x\n", op: "set", key: "a", arg: "2024-01-02", want: "a: '2024-01-02'\n"},
	{name: "set quotes *", src: "a: x\n", op: "set", key: "a", arg: "*", want: "a: '*'\n"},
	{name: "set quotes &x", src: "a: x\n", op: "set", key: "a", arg: "&x", want: "a: '&x'\n"},
	{name: "set quotes a leading dash", src: "a: x\n", op: "set", key: "a", arg: "-Dfoo=bar -XX:+UseG1GC", want: "a: '-Dfoo=bar -XX:+UseG1GC'\n"},
	{name: "set quotes ': '", src: "a: x\n", op: "set", key: "a", arg: "k: v", want: "a: 'k: v'\n"},
	{name: "set quotes ' #'", src: "a: x\n", op: "set", key: "a", arg: "x #y", want: "a: 'x #y'\n"},
	{name: "set quotes blanks around", src: "a: x\n", op: "set", key: "a", arg: " x ", want: "a: ' x '\n"},
	{name: "set escapes a quote", src: "a: x\n", op: "set", key: "a", arg: "'it's'", want: "a: '''it''s'''\n"},
	{name: "set keeps an inner quote plain", src: "a: x\n", op: "set", key: "a", arg: "it's", want: "a: it's\n"},
	{name: "set double-quotes a line break", src: "a: x\n", op: "set", key: "a", arg: "x\ny", want: "a: \"x\\ny\"\n"},
	{name: "set double-quotes a control character", src: "a: x\n", op: "set", key: "a", arg: "x\x01", want: "a: \"x\\x01\"\n"},
	{name: "set an empty string", src: "a: x\n", op: "set", key: "a", arg: "", want: "a: ''\n"},
	{name: "set plain duration and URL", src: "a: x\nb: y\n", op: "set", key: "b", arg: "hdfs://nn:8020/flink/ckpt", want: "a: x\nb: hdfs://nn:8020/flink/ckpt\n"},
	{name: "set a null value", src: "a:\nb: 1\n", op: "set", key: "a", arg: "5", want: "a: 5\nb: 1\n"},
	{name: "set a null value at the end of the file", src: "b: 1\na:", op: "set", key: "a", arg: "x", want: "b: 1\na: x"},
	{name: "set a ~ value", src: "a: ~ # none\n", op: "set", key: "a", arg: "true", want: "a: true # none\n"},
	{name: "set in a flow mapping quotes flow indicators", src: "state: {backend: x, y: 1}\n", op: "set", key: "state.backend", arg: "a,b", want: "state: {backend: 'a,b', y: 1}\n"},
	{name: "set replaces a one-line flow list", src: "a: [x, y]\n", op: "set", key: "a", arg: "z", want: "a: z\n"},
	{name: "set replaces an alias", src: "a: &v 1s\nb: *v\n", op: "set", key: "b", arg: "2s", want: "a: &v 1s\nb: 2s\n"},
	{name: "set the same value: no edit", src: "a: 'x'\n", op: "set", key: "a", arg: "x", want: "a: 'x'\n"},
	{name: "set the same int: no edit", src: "a: 010\n", op: "set", key: "a", arg: "10", want: "a: 010\n"},
	{name: "set changes the later of flat and nested", src: "a.b: 1\na:\n  b: 2\n", op: "set", key: "a.b", arg: "3", want: "a.b: 1\na:\n  b: 3\n"},
	{name: "set refuses a block scalar", src: "a: |\n  x\n", op: "set", key: "a", arg: "y", wantErr: parsed.ErrCannotRepresent},
	{name: "set refuses a multi-line plain scalar", src: "a: x\n  y\n", op: "set", key: "a", arg: "z", wantErr: parsed.ErrCannotRepresent},
	{name: "set refuses a block sequence", src: "a:\n- x\n", op: "set", key: "a", arg: "y", wantErr: parsed.ErrCannotRepresent},
	{name: "set refuses an anchored value", src: "a: &v x\nb: *v\n", op: "set", key: "a", arg: "y", wantErr: parsed.ErrCannotRepresent},
	{name: "set refuses a tagged value", src: "a: !!str x\n", op: "set", key: "a", arg: "y", wantErr: parsed.ErrCannotRepresent},
	{name: "set refuses invalid UTF-8", src: "a: x\n", op: "set", key: "a", arg: "caf\xe9", wantErr: parsed.ErrCannotRepresent},

	// set, new key
	{name: "set new key in the deepest mapping", src: "execution:\n  checkpointing:\n    interval: 10s\nstate: x\n",
		op: "set", key: "execution.checkpointing.min-pause", arg: "30 s",
		want: "execution:\n  checkpointing:\n    interval: 10s\n    min-pause: 30 s\nstate: x\n"},
	{name: "set new key: the rest of the key flat in the deepest mapping", src: "execution:\n    runtime-mode: STREAMING\nstate: x\n",
		op: "set", key: "execution.checkpointing.min-pause", arg: "30 s",
		want: "execution:\n    runtime-mode: STREAMING\n    checkpointing.min-pause: 30 s\nstate: x\n"},
	{name: "set new key after the last pair of a subtree", src: "a:\n  b:\n    c: 1\n  d: 2\ne: 3\n",
		op: "set", key: "a.x", arg: "4", want: "a:\n  b:\n    c: 1\n  d: 2\n  x: 4\ne: 3\n"},
	{name: "set new key next to related flat keys", src: "execution.checkpointing.interval: 10s\nstate.backend.type: rocksdb\n",
		op: "set", key: "execution.checkpointing.min-pause", arg: "30 s",
		want: "execution.checkpointing.interval: 10s\nexecution.checkpointing.min-pause: 30 s\nstate.backend.type: rocksdb\n"},
	{name: "set new key, no related key: at the end", src: "a: 1\n# end\n", op: "set", key: "b.c", arg: "2", want: "a: 1\nb.c: 2\n# end\n"},
	{name: "set new key after the commented-out children of the last pair", src: "a: 1\nb:\n  c: 1\n  # d: 2\n\n# top comment\n", op: "set", key: "x", arg: "1",
		want: "a: 1\nb:\n  c: 1\n  # d: 2\nx: 1\n\n# top comment\n"},
	{name: "set new key before a commented-out sibling", src: "a:\n  b: 1\n  # c: 2\n", op: "set", key: "a.e", arg: "5", want: "a:\n  b: 1\n  e: 5\n  # c: 2\n"},
	{name: "set new key beside a mapping of that name", src: "a:\n  c:\n    d: 1\n", op: "set", key: "a.c", arg: "x", want: "a:\n  c:\n    d: 1\na.c: x\n"},
	{name: "set new key in an empty file", src: "", op: "set", key: "a", arg: "1", want: "a: 1\n"},
	{name: "set new key in a comment-only file", src: "# c\n", op: "set", key: "a", arg: "v", want: "# c\na: v\n"},
	{name: "set new key, no final newline", src: "a: 1", op: "set", key: "b", arg: "2", want: "a: 1\nb: 2"},
	{name: "set new nested key, no final newline", src: "x:\n  y: 1", op: "set", key: "x.z", arg: "2", want: "x:\n  y: 1\n  z: 2"},
	{name: "set new key after a BOM", src: "\ufeffa: 1\n", op: "set", key: "b", arg: "2", want: "\ufeffa: 1\nb: 2\n"},
	{name: "set new key, lone CR", src: "a: 1\rb: 2\r", op: "set", key: "c", arg: "3", want: "a: 1\rb: 2\rc: 3\r"},
	{name: "set new key quoted", src: "a: 1\n", op: "set", key: "*x", arg: "v", want: "a: 1\n'*x': v\n"},
	{name: "set new key refuses a flow top level", src: "{a: 1}\n", op: "set", key: "b", arg: "2", wantErr: parsed.ErrCannotRepresent},

	// Flink 1.20 GlobalConfigurationTest L88-134 (testConfigurationWithStandardYAML)
	{name: "standard YAML test file: Key4 int", src: standardYAML, op: "set", key: "Key4", arg: "2",
		want: strings.Replace(standardYAML, "Key4: 1", "Key4: 2", 1)},
	{name: "standard YAML test file: Key5 '1' stays a string", src: standardYAML, op: "set", key: "Key5", arg: "2",
		want: strings.Replace(standardYAML, "Key5: '1'", "Key5: '2'", 1)},
	{name: "standard YAML test file: Key6 '*'", src: standardYAML, op: "set", key: "Key6", arg: "**",
		want: strings.Replace(standardYAML, "Key6: '*'", "Key6: '**'", 1)},
	{name: "standard YAML test file: Key8 'true' stays a string", src: standardYAML, op: "set", key: "Key8", arg: "false",
		want: strings.Replace(standardYAML, "Key8: 'true'", "Key8: 'false'", 1)},
	{name: "standard YAML test file: Key10.k3 in a flow map", src: standardYAML, op: "set", key: "Key10.k3", arg: "4",
		want: strings.Replace(standardYAML, "k3: 3}\nKey11", "k3: 4}\nKey11", 1)},
	{name: "standard YAML test file: new key under Key1", src: standardYAML, op: "set", key: "Key1.Key12", arg: "v",
		want: strings.Replace(standardYAML, "    Key3: 'v2'\n", "    Key3: 'v2'\n    Key12: v\n", 1)},
	{name: "standard YAML test file: delete Key1.Key2", src: standardYAML, op: "delete", key: "Key1.Key2",
		want: strings.Replace(standardYAML, "    Key2: v1\n", "", 1)},
	{name: "standard YAML test file: delete in a flow map refused", src: standardYAML, op: "delete", key: "Key10.k1", wantErr: parsed.ErrCannotRepresent},

	// delete
	{name: "delete", src: "a: 1\nb: 2\n", op: "delete", key: "a", want: "b: 2\n"},
	{name: "delete a nested leaf", src: "x:\n  a: 1\n  b: 2\n", op: "delete", key: "x.a", want: "x:\n  b: 2\n"},
	{name: "delete removes mappings left empty", src: "x:\n  y:\n    a: 1\nz: 2\n", op: "delete", key: "x.y.a", want: "z: 2\n"},
	{name: "delete a block sequence value", src: "a:\n- 1\n- 2\nb: 3\n", op: "delete", key: "a", want: "b: 3\n"},
	{name: "delete a block scalar", src: "a: |\n  x\n  y\nb: 1\n", op: "delete", key: "a", want: "b: 1\n"},
	{name: "delete keeps the comment above", src: "# about a\na: 1 # inline\nb: 2\n", op: "delete", key: "a", want: "# about a\nb: 2\n"},
	{name: "delete the last line, no final newline", src: "a: 1\nb: 2", op: "delete", key: "b", want: "a: 1"},
	{name: "delete the only key keeps the BOM", src: "\ufeffa: 1\n", op: "delete", key: "a", want: "\ufeff"},
	{name: "delete flat and nested definitions", src: "a.b: 1\nc: 0\na:\n  b: 2\n", op: "delete", key: "a.b", want: "c: 0\n"},
	{name: "delete a flow mapping left empty", src: "s: {a: 1}\nt: 2\n", op: "delete", key: "s.a", want: "t: 2\n"},
	{name: "delete refuses a pair in a flow mapping", src: "s: {a: 1, b: 2}\n", op: "delete", key: "s.a", wantErr: parsed.ErrCannotRepresent},
	{name: "delete an absent key", src: "a: 1\n", op: "delete", key: "b", wantErr: parsed.ErrNotFound},

	// rename
	{name: "rename flat", src: "state.backend: rocksdb # fast\n", op: "rename", key: "state.backend", arg: "state.backend.type", want: "state.backend.type: rocksdb # fast\n"},
	{name: "rename nested in place", src: "state:\n  backend: rocksdb\n", op: "rename", key: "state.backend", arg: "state.backend.type", want: "state:\n  backend.type: rocksdb\n"},
	{name: "rename a quoted key", src: "'a': 1\n", op: "rename", key: "a", arg: "b", want: "b: 1\n"},
	{name: "rename moves to another mapping",
		src: "state:\n  checkpoints:\n    dir: hdfs://x\n  backend: r\nexecution:\n  checkpointing:\n    interval: 1s\n",
		op:  "rename", key: "state.checkpoints.dir", arg: "execution.checkpointing.dir",
		want: "state:\n  backend: r\nexecution:\n  checkpointing:\n    interval: 1s\n    dir: hdfs://x\n"},
	{name: "rename moves the value token verbatim", src: "a:\n  x: '010'\nb:\n  y: 1\n", op: "rename", key: "a.x", arg: "b.x",
		want: "b:\n  y: 1\n  x: '010'\n"},
	{name: "rename onto a set key", src: "a: 1\nb: 2\n", op: "rename", key: "a", arg: "b", wantErr: parsed.ErrExists},
	{name: "rename an absent key", src: "a: 1\n", op: "rename", key: "b", arg: "c", wantErr: parsed.ErrNotFound},
	{name: "rename refuses a multi-line value that must move", src: "a:\n  x: |\n    v\nb:\n  y: 1\n", op: "rename", key: "a.x", arg: "b.x", wantErr: parsed.ErrCannotRepresent},
}

var deploymentEditCases = []editCase{
	{name: "deployment: set existing", src: manifest("  flinkConfiguration:", "    a: '2'", "  job:", "    parallelism: 2"),
		op: "set", key: "a", arg: "3", want: manifest("  flinkConfiguration:", "    a: '3'", "  job:", "    parallelism: 2")},
	{name: "deployment: set new key", src: manifest("  flinkConfiguration:", "    state.backend.type: rocksdb", "  job:", "    parallelism: 2"),
		op: "set", key: "execution.checkpointing.interval", arg: "10 s",
		want: manifest("  flinkConfiguration:", "    state.backend.type: rocksdb", "    execution.checkpointing.interval: 10 s", "  job:", "    parallelism: 2")},
	{name: "deployment: add flinkConfiguration after flinkVersion", src: manifest("  image: flink:1.20", "  flinkVersion: v1_20", "  job:", "    parallelism: 2"),
		op: "set", key: "execution.checkpointing.interval", arg: "10 s",
		want: manifest("  image: flink:1.20", "  flinkVersion: v1_20", "  flinkConfiguration:", "    execution.checkpointing.interval: 10 s", "  job:", "    parallelism: 2")},
	{name: "deployment: add flinkConfiguration with the file's indentation", src: manifest("    image: flink:1.20", "    job:", "        parallelism: 2"),
		op: "set", key: "a", arg: "1",
		want: manifest("    image: flink:1.20", "    job:", "        parallelism: 2", "    flinkConfiguration:", "        a: '1'")},
	// The operator's CRD types flinkConfiguration as a map of strings
	// (flink-kubernetes-operator release-1.12.1,
	// helm/flink-kubernetes-operator/crds/flinkdeployments.flink.apache.org-v1.yml;
	// testdata/crds): a number or a bool written plain would make the API
	// server refuse the manifest, so every value is a string.
	{name: "deployment: a new int is a string", src: manifest("  flinkConfiguration:", "    state.backend.type: rocksdb"),
		op: "set", key: "execution.checkpointing.tolerable-failed-checkpoints", arg: "3",
		want: manifest("  flinkConfiguration:", "    state.backend.type: rocksdb", "    execution.checkpointing.tolerable-failed-checkpoints: '3'")},
	{name: "deployment: a new bool is a string", src: manifest("  flinkConfiguration:", "    state.backend.type: rocksdb"),
		op: "set", key: "state.backend.incremental", arg: "true",
		want: manifest("  flinkConfiguration:", "    state.backend.type: rocksdb", "    state.backend.incremental: 'true'")},
	{name: "deployment: an int replacing a plain int is a string", src: manifest("  flinkConfiguration:", "    a: 2"),
		op: "set", key: "a", arg: "3", want: manifest("  flinkConfiguration:", "    a: '3'")},
	{name: "deployment: a bool replacing a plain bool is a string", src: manifest("  flinkConfiguration:", "    b: false # off"),
		op: "set", key: "b", arg: "true", want: manifest("  flinkConfiguration:", "    b: 'true' # off")},
	{name: "deployment: a double-quoted value stays double-quoted", src: manifest("  flinkConfiguration:", "    a: \"2\""),
		op: "set", key: "a", arg: "3", want: manifest("  flinkConfiguration:", "    a: \"3\"")},
	{name: "deployment: fill a null value with a string", src: manifest("  flinkConfiguration:", "    a:", "    b: x"),
		op: "set", key: "a", arg: "5", want: manifest("  flinkConfiguration:", "    a: '5'", "    b: x")},
	{name: "deployment: fill a null flinkConfiguration", src: manifest("  flinkConfiguration:", "  job:", "    parallelism: 2"),
		op: "set", key: "a", arg: "x", want: manifest("  flinkConfiguration:", "    a: x", "  job:", "    parallelism: 2")},
	{name: "deployment: fill an empty flinkConfiguration", src: manifest("  flinkConfiguration: {} # none yet", "  job:", "    parallelism: 2"),
		op: "set", key: "a", arg: "x", want: manifest("  flinkConfiguration: # none yet", "    a: x", "  job:", "    parallelism: 2")},
	{name: "deployment: the second deployment", src: twoDeployments, dep: 1, op: "set", key: "execution.checkpointing.min-pause", arg: "1 min",
		want: strings.Replace(twoDeployments, "        interval: 10s\n", "        interval: 10s\n        min-pause: 1 min\n", 1)},
	{name: "deployment: delete the last key leaves an empty flinkConfiguration", src: manifest("  flinkConfiguration:", "    a: 1", "  job:", "    parallelism: 2"),
		op: "delete", key: "a", want: manifest("  flinkConfiguration:", "  job:", "    parallelism: 2")},
	{name: "deployment: delete a nested key", src: twoDeployments, dep: 1, op: "delete", key: "execution.checkpointing.interval",
		want: strings.Replace(twoDeployments, "    execution:\n      checkpointing:\n        interval: 10s\n", "", 1)},
	{name: "deployment: rename", src: twoDeployments, dep: 0, op: "rename", key: "state.checkpoints.dir", arg: "execution.checkpointing.dir",
		want: strings.Replace(twoDeployments, "    state.checkpoints.dir:", "    execution.checkpointing.dir:", 1)},
	{name: "deployment: no spec", src: "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata:\n  name: x\n", op: "set", key: "a", arg: "1", wantErr: parsed.ErrCannotRepresent},
}

// target is the configuration an editCase edits, parsed.
type target struct {
	cfg *parsed.File
	ed  parsed.Editor
	// manifestErr is the error of the whole manifest (dep >= 0): a later
	// document may fail to parse while the dep-th deployment did not.
	manifestErr *parsed.ParseError
}

// open parses src as a config.yaml (dep < 0) or a manifest and returns the
// configuration and its editor; ok is false when there is none.
func open(src []byte, dep int) (target, bool) {
	if dep < 0 {
		f := ParseConfig("conf/config.yaml", src)
		return target{cfg: f, ed: NewConfigEditor(f)}, true
	}
	deps, _, perr := ParseManifests("deploy.yaml", src)
	if dep >= len(deps) {
		return target{}, false
	}
	return target{cfg: deps[dep].Config, ed: NewDeploymentEditor(&deps[dep], src), manifestErr: perr}, true
}

// yamlFormat is the config.yaml (dep < 0) or the dep-th FlinkDeployment of
// a manifest for the editor checks of edittest. With whole, an edited
// manifest must parse as a whole too, not only its dep-th deployment.
func yamlFormat(dep int, whole bool) edittest.Format[target, map[string]typed] {
	return edittest.Format[target, map[string]typed]{
		Reader: "Flink",
		Parse:  func(src []byte) (target, bool) { return open(src, dep) },
		Err: func(tg target) error {
			if tg.cfg.Err != nil || !whole {
				return edittest.ParseErr(tg.cfg.Err)
			}
			return edittest.ParseErr(tg.manifestErr)
		},
		Editor:   func(tg target) parsed.Editor { return tg.ed },
		View:     func(tg target) map[string]typed { return effectiveTyped(tg.cfg) },
		Expected: expectedOf(dep),
	}
}

// expectedOf is expectedYAML for a config.yaml (dep < 0), else
// expectedManifest.
func expectedOf(dep int) func(map[string]typed, string, string, string) map[string]typed {
	if dep < 0 {
		return expectedYAML
	}
	return expectedManifest
}

// wantKind is the type Set must give a value: in a config.yaml a
// canonical int or a bool keeps that type when the key is new, null or of
// that type; in a FlinkDeployment (strings) every value is a string.
func wantKind(prev typed, had bool, value string, allStrings bool) parsed.Kind {
	if allStrings {
		return parsed.KindString
	}
	free := !had || prev.Kind == parsed.KindNull
	switch {
	case canonicalInt().MatchString(value) && (free || prev.Kind == parsed.KindInt):
		return parsed.KindInt
	case (value == "true" || value == "false") && (free || prev.Kind == parsed.KindBool):
		return parsed.KindBool
	}
	return parsed.KindString
}

// expectedYAML returns what Flink must read after op on a config.yaml
// (expectedManifest: a FlinkDeployment's flinkConfiguration) that reads as
// before.
func expectedYAML(before map[string]typed, op, key, arg string) map[string]typed {
	return expected(before, op, key, arg, false)
}

func expectedManifest(before map[string]typed, op, key, arg string) map[string]typed {
	return expected(before, op, key, arg, true)
}

func expected(before map[string]typed, op, key, arg string, allStrings bool) map[string]typed {
	want := maps.Clone(before)
	switch op {
	case "set":
		prev, had := before[key]
		if had && prev.Kind != parsed.KindNull && prev.Value == arg {
			break // no edit
		}
		want[key] = typed{arg, wantKind(prev, had, arg, allStrings)}
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

func TestEditor(t *testing.T) {
	var cases []editCase
	for _, tc := range configEditCases {
		tc.dep = -1
		cases = append(cases, tc)
	}
	cases = append(cases, deploymentEditCases...)
	for _, tc := range cases {
		edittest.RunRow(t, yamlFormat(tc.dep, true), edittest.Row{Name: tc.name, Src: tc.src, Op: tc.op, Key: tc.key, Arg: tc.arg, Want: tc.want, WantErr: tc.wantErr})
	}
}

func TestEditorParseError(t *testing.T) {
	f := ParseConfig("config.yaml", []byte("a: 1\na: 2\n"))
	if f.Err == nil {
		t.Fatal("duplicate keys parsed")
	}
	for _, ed := range []parsed.Editor{NewConfigEditor(f), NewConfigEditor(nil), NewDeploymentEditor(nil, nil)} {
		edittest.RefusesAll(t, ed, "a", "b")
	}
}
