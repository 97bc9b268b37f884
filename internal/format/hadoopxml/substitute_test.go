package hadoopxml

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mapLookup(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := m[k]
		return v, ok
	}
}

// TestSubstitute holds one row per Hadoop 3.4.1 vector (Hadoop 3.4.1
// TestConfiguration testVariableSubstitution L412-448 and testEnvDefault
// L461-504) plus the substituteVars rules the tests do not cover.
func TestSubstitute(t *testing.T) {
	// testVariableSubstitution declares these keys; its mock returns
	// "hadoop_user" for the system property user.name
	// (Mockito.when(mock.getProperty("user.name"))) and "hello" for the
	// environment variable FILE_NAME.
	varSubst := map[string]string{
		"my.int": "${intvar}", "intvar": "42",
		"my.base": "/tmp/${user.name}", "my.file": "${env.FILE_NAME}", "my.suffix": ".txt",
		"my.relfile": "${my.file}${my.suffix}", "my.fullfile": "${my.base}/${my.file}${my.suffix}",
		"my.failsexpand": "a${my.undefvar}b",
	}
	varEnv := map[string]string{"FILE_NAME": "hello"}
	varProps := map[string]string{"user.name": "hadoop_user"}
	// testEnvDefault: NULL_VALUE is unset, EMPTY_VALUE is "", SOME_VALUE is "some value".
	envDefault := map[string]string{"EMPTY_VALUE": "", "SOME_VALUE": "some value"}

	tests := []struct {
		name   string
		value  string
		keys   map[string]string
		env    map[string]string
		props  map[string]string // the JVM's system properties
		want   string
		errMsg string
	}{
		// Hadoop 3.4.1 TestConfiguration testVariableSubstitution L412-448
		{name: "testVariableSubstitution my.int ${intvar}", value: "${intvar}", keys: varSubst, env: varEnv, props: varProps, want: "42"},
		{name: "testVariableSubstitution intvar", value: "42", keys: varSubst, env: varEnv, props: varProps, want: "42"},
		{name: "testVariableSubstitution my.base /tmp/${user.name}", value: "/tmp/${user.name}", keys: varSubst, env: varEnv, props: varProps, want: "/tmp/hadoop_user"},
		{name: "testVariableSubstitution my.file ${env.FILE_NAME}", value: "${env.FILE_NAME}", keys: varSubst, env: varEnv, props: varProps, want: "hello"},
		{name: "testVariableSubstitution my.suffix", value: ".txt", keys: varSubst, env: varEnv, props: varProps, want: ".txt"},
		{name: "testVariableSubstitution my.relfile", value: "${my.file}${my.suffix}", keys: varSubst, env: varEnv, props: varProps, want: "hello.txt"},
		{name: "testVariableSubstitution my.fullfile", value: "${my.base}/${my.file}${my.suffix}", keys: varSubst, env: varEnv, props: varProps, want: "/tmp/hadoop_user/hello.txt"},
		{name: "testVariableSubstitution my.failsexpand undefined stays literal", value: "a${my.undefvar}b", keys: varSubst, env: varEnv, props: varProps, want: "a${my.undefvar}b"},
		// Configuration.substituteVars: getProperty(var) before getRaw(var)
		// (Hadoop 3.4.1 L1190-1196; 3.1.3 and 2.6.5 alike)
		{name: "the JVM's property wins over a key of the same name", value: "/tmp/${user.name}",
			keys: map[string]string{"user.name": "from-the-file"}, props: varProps, want: "/tmp/hadoop_user"},
		{name: "without the property the key is read", value: "/tmp/${user.name}",
			keys: map[string]string{"user.name": "from-the-file"}, want: "/tmp/from-the-file"},
		{name: "an env reference is not a system property", value: "${env.X}",
			keys: map[string]string{"env.X": "k"}, props: map[string]string{"env.X": "p"}, want: "k"},

		// Hadoop 3.4.1 TestConfiguration testEnvDefault L461-504
		{name: "testEnvDefault null1 ${env.NULL_VALUE}", value: "${env.NULL_VALUE}", env: envDefault, want: "${env.NULL_VALUE}"},
		{name: "testEnvDefault null2 ${env.NULL_VALUE-a}", value: "${env.NULL_VALUE-a}", env: envDefault, want: "a"},
		{name: "testEnvDefault null3 ${env.NULL_VALUE:-b}", value: "${env.NULL_VALUE:-b}", env: envDefault, want: "b"},
		{name: "testEnvDefault empty1 ${env.EMPTY_VALUE}", value: "${env.EMPTY_VALUE}", env: envDefault, want: ""},
		{name: "testEnvDefault empty2 ${env.EMPTY_VALUE-c}", value: "${env.EMPTY_VALUE-c}", env: envDefault, want: ""},
		{name: "testEnvDefault empty3 ${env.EMPTY_VALUE:-d}", value: "${env.EMPTY_VALUE:-d}", env: envDefault, want: "d"},
		{name: "testEnvDefault some1 ${env.SOME_VALUE}", value: "${env.SOME_VALUE}", env: envDefault, want: "some value"},
		{name: "testEnvDefault some2 ${env.SOME_VALUE-e}", value: "${env.SOME_VALUE-e}", env: envDefault, want: "some value"},
		{name: "testEnvDefault some3 ${env.SOME_VALUE:-f}", value: "${env.SOME_VALUE:-f}", env: envDefault, want: "some value"},
		{name: "testEnvDefault edge1 ${env.NULL_VALUE-g-h}", value: "${env.NULL_VALUE-g-h}", env: envDefault, want: "g-h"},
		{name: "testEnvDefault edge2 ${env.NULL_VALUE:-i:-j}", value: "${env.NULL_VALUE:-i:-j}", env: envDefault, want: "i:-j"},
		{name: "testEnvDefault edge3 ${env.NULL_VALUE-}", value: "${env.NULL_VALUE-}", env: envDefault, want: ""},
		{name: "testEnvDefault edge4 ${env.NULL_VALUE:-}", value: "${env.NULL_VALUE:-}", env: envDefault, want: ""},
		{name: "testEnvDefault edge5 ${env.NULL_VALUE:}", value: "${env.NULL_VALUE:}", env: envDefault, want: "${env.NULL_VALUE:}"},

		// Hadoop 3.4.1 (Configuration.substituteVars L1150-1218): rules without a test vector.
		{name: "self-reference returns the original", value: "x${a}y", keys: map[string]string{"a": "1${a}"}, want: "x${a}y"},
		{name: "first unbound variable stops the expansion", value: "${undef}${a}", keys: map[string]string{"a": "1"}, want: "${undef}${a}"},
		{name: "expansion so far is kept at an unbound variable", value: "${a}${undef}${a}", keys: map[string]string{"a": "1"}, want: "1${undef}${a}"},
		{name: "unset env falls back to the key env.NAME", value: "${env.X}", keys: map[string]string{"env.X": "k"}, want: "k"},
		{name: "deprecated name reads the replacement key", value: "${dfs.block.size}", keys: map[string]string{"dfs.blocksize": "1m"}, want: "1m"},
		{name: "nested values are expanded", value: "${a}", keys: map[string]string{"a": "${b}", "b": "2"}, want: "2"},
		{name: "space ends a variable name", value: "${a b}${c}", keys: map[string]string{"c": "3"}, want: "${a b}3"},
		{name: "empty name is skipped", value: "${}${c}", keys: map[string]string{"c": "3"}, want: "${}3"},
		{name: "dollar inside braces restarts", value: "${a$b}", keys: map[string]string{"b": "x"}, want: "${a$b}"},
		{name: "unterminated reference", value: "${abc", keys: map[string]string{"abc": "x"}, want: "${abc"},
		{name: "leading brace without dollar", value: "{a}${a}", keys: map[string]string{"a": "1"}, want: "{a}1"},
		{name: "bare env. is a key", value: "${env.}", keys: map[string]string{"env.": "e"}, want: "e"},
		{name: "19 substitutions succeed", value: strings.Repeat("${a}", 19), keys: map[string]string{"a": "x"}, want: strings.Repeat("x", 19)},
		{name: "depth limit 20 (MAX_SUBST L1040)", value: strings.Repeat("${a}", 20), keys: map[string]string{"a": "x"},
			errMsg: "Variable substitution depth too large: 20 " + strings.Repeat("${a}", 20)},
		{name: "mutual reference hits the depth limit", value: "${a}", keys: map[string]string{"a": "${b}", "b": "${a}"},
			errMsg: "Variable substitution depth too large: 20 ${a}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var getenv func(string) (string, bool)
			if tt.env != nil {
				getenv = mapLookup(tt.env)
			}
			var props func(string) (string, bool)
			if tt.props != nil {
				props = mapLookup(tt.props)
			}
			got, err := Substitute(tt.value, mapLookup(tt.keys), getenv, props)
			if tt.errMsg != "" {
				var de *SubstitutionDepthError
				if !errors.As(err, &de) || err.Error() != tt.errMsg {
					t.Fatalf("Substitute(%q) error = %v, want %q", tt.value, err, tt.errMsg)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Substitute(%q) = %q, %v; want %q", tt.value, got, err, tt.want)
			}
		})
	}
}

func TestSubstituteNilFuncs(t *testing.T) {
	got, err := Substitute("${a}${env.B:-d}", nil, nil, nil)
	if err != nil || got != "${a}${env.B:-d}" {
		t.Errorf("got %q, %v", got, err)
	}
	got, err = Substitute("${env.B:-d}", nil, nil, nil)
	if err != nil || got != "d" {
		t.Errorf("got %q, %v", got, err)
	}
}

// TestExpand is substitution as ckptlint reads a file (expand): the
// environment and the JVM of the process are unknown, so their references
// stay as written and the rest is expanded as Hadoop would once it had
// them (Configuration.substituteVars, Hadoop 3.4.1 L1150-1218).
func TestExpand(t *testing.T) {
	keys := map[string]string{"hadoop.tmp.dir": "/tmp/hadoop-${user.name}", "a": "1", "user.name": "from-the-file", "env.X": "k"}
	for _, tt := range []struct {
		name, value, want string
		err               bool
	}{
		{"a JVM property is kept and the rest expanded", "${hadoop.tmp.dir}/dfs/${a}", "/tmp/hadoop-${user.name}/dfs/1", false},
		{"a key named like a JVM property does not win", "${user.name}", "${user.name}", false},
		{"an env default is kept", "${env.BS:-1m}", "${env.BS:-1m}", false},
		{"an env reference is kept, not read from the key", "${env.X}/${a}", "${env.X}/1", false},
		{"an unbound key still stops the expansion", "${undef}${a}", "${undef}${a}", false},
		{"a property counts toward the 20 substitutions", strings.Repeat("${user.name}", 20), "", true},
		{"19 of them are fine", strings.Repeat("${user.name}", 19), strings.Repeat("${user.name}", 19), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := expand(tt.value, mapLookup(keys), nil)
			if tt.err {
				var de *SubstitutionDepthError
				if !errors.As(err, &de) {
					t.Fatalf("expand(%q) = %q, %v; want the depth error", tt.value, got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("expand(%q) = %q, %v; want %q", tt.value, got, err, tt.want)
			}
		})
	}
}

// TestUnknowns: what an expanded value's unknown references stand for.
func TestUnknowns(t *testing.T) {
	for _, tt := range []struct{ value, likely, why string }{
		{"/data/${user.name}", "/data/${user.name}", "${user.name} is the JVM's system property user.name"},
		{"${env.BS:-1m}", "1m", `${env.BS:-1m} is "1m" unless the environment variable BS is set and not empty`},
		{"${env.BS-2m}x", "2mx", `${env.BS-2m} is "2m" unless the environment variable BS is set`},
		{"${env.HOME}", "${env.HOME}", "${env.HOME} is the environment variable HOME (or the key env.HOME when it is unset)"},
		{"${env.A:-a}${java.io.tmpdir}", "a${java.io.tmpdir}", "the JVM's system property java.io.tmpdir"},
		{"${undef}/x", "${undef}/x", ""},
		{"plain", "plain", ""},
	} {
		likely, why := Unknowns(tt.value)
		if likely != tt.likely || tt.why == "" && why != "" || tt.why != "" && !strings.Contains(why, tt.why) {
			t.Errorf("Unknowns(%q) = %q, %q; want %q and a reason with %q", tt.value, likely, why, tt.likely, tt.why)
		}
	}
}

// TestResubstitute: Hadoop expands ${var} when a value is read, over the
// merged configuration of every resource (Configuration.get, Hadoop 3.4.1
// L1260-1270), so a reference in hdfs-site.xml reads a key of
// core-site.xml, and a later resource's value of a key wins over the
// file's own.
func TestResubstitute(t *testing.T) {
	hdfs := Parse("hdfs-site.xml", []byte(conf(
		prop("dfs.datanode.data.dir", "file://${hadoop.tmp.dir}/dfs/data")+
			prop("dfs.blocksize", "${x}")+
			prop("own", "${b}")+prop("b", "local")+
			prop("plain", "1")+
			prop("loop", "${loop.a}"))), Options{})
	if hdfs.Err != nil {
		t.Fatal(hdfs.Err)
	}
	merged := map[string][2]string{
		"hadoop.tmp.dir": {"/tmp/hadoop-${user.name}", ""},
		"x":              {"1m", ""},
		"b":              {"merged", ""},
		"loop.a":         {"${loop.b}", ""},
		"loop.b":         {"${loop.a}x", ""},
	}
	lookup := func(k string) (string, string, bool) {
		v, ok := merged[k]
		return v[0], v[1], ok
	}
	g := Resubstitute(hdfs, lookup)
	if g == hdfs {
		t.Fatal("nothing changed")
	}
	for k, want := range map[string]string{
		"dfs.datanode.data.dir": "file:///tmp/hadoop-${user.name}/dfs/data",
		"dfs.blocksize":         "1m",
		"own":                   "merged",
		"plain":                 "1",
		"loop":                  "${loop.a}",
	} {
		if got := looked(g, k); got != want {
			t.Errorf("get(%q) = %q, want %q", k, got, want)
		}
	}
	if e := g.Lookup("dfs.blocksize"); e.Raw != "${x}" {
		t.Errorf("Raw = %q, want the text as written", e.Raw)
	}
	if diff := cmp.Diff([]string{NoticeSubstitutionDepth}, noticeCodes(g)); diff != "" {
		t.Errorf("notices (-want +got):\n%s", diff)
	}
	if looked(hdfs, "dfs.blocksize") != "${x}" || looked(hdfs, "own") != "local" {
		t.Error("the parsed file itself changed")
	}
	// an external entity's unknown value carries over
	merged["x"] = [2]string{"&ext;", "ckptlint does not resolve external entities; Hadoop would read file:///x"}
	if e := Resubstitute(hdfs, lookup).Lookup("dfs.blocksize"); !strings.Contains(e.Unknown, "Hadoop would read file:///x (through ${x})") {
		t.Errorf("Unknown = %q", e.Unknown)
	}
	// the file's own keys again: nothing changes
	own := func(k string) (string, string, bool) {
		e := hdfs.Lookup(k)
		if e == nil {
			return "", "", false
		}
		if e.Raw != "" {
			return e.Raw, "", true
		}
		return e.Value, "", true
	}
	if Resubstitute(hdfs, own) != hdfs {
		t.Error("expanding against the file's own keys changed it")
	}
}
