package hadoopxml

import (
	"errors"
	"strings"
	"testing"
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
	// "hadoop_user" for the system property user.name, which ckptlint
	// emulates by binding the key user.name.
	varSubst := map[string]string{
		"my.int": "${intvar}", "intvar": "42",
		"my.base": "/tmp/${user.name}", "my.file": "${env.FILE_NAME}", "my.suffix": ".txt",
		"my.relfile": "${my.file}${my.suffix}", "my.fullfile": "${my.base}/${my.file}${my.suffix}",
		"my.failsexpand": "a${my.undefvar}b",
		"user.name":      "hadoop_user",
	}
	varEnv := map[string]string{"FILE_NAME": "hello"}
	// testEnvDefault: NULL_VALUE is unset, EMPTY_VALUE is "", SOME_VALUE is "some value".
	envDefault := map[string]string{"EMPTY_VALUE": "", "SOME_VALUE": "some value"}

	tests := []struct {
		name   string
		value  string
		keys   map[string]string
		env    map[string]string
		want   string
		errMsg string
	}{
		// Hadoop 3.4.1 TestConfiguration testVariableSubstitution L412-448
		{name: "testVariableSubstitution my.int ${intvar}", value: "${intvar}", keys: varSubst, env: varEnv, want: "42"},
		{name: "testVariableSubstitution intvar", value: "42", keys: varSubst, env: varEnv, want: "42"},
		{name: "testVariableSubstitution my.base /tmp/${user.name}", value: "/tmp/${user.name}", keys: varSubst, env: varEnv, want: "/tmp/hadoop_user"},
		{name: "testVariableSubstitution my.file ${env.FILE_NAME}", value: "${env.FILE_NAME}", keys: varSubst, env: varEnv, want: "hello"},
		{name: "testVariableSubstitution my.suffix", value: ".txt", keys: varSubst, env: varEnv, want: ".txt"},
		{name: "testVariableSubstitution my.relfile", value: "${my.file}${my.suffix}", keys: varSubst, env: varEnv, want: "hello.txt"},
		{name: "testVariableSubstitution my.fullfile", value: "${my.base}/${my.file}${my.suffix}", keys: varSubst, env: varEnv, want: "/tmp/hadoop_user/hello.txt"},
		{name: "testVariableSubstitution my.failsexpand undefined stays literal", value: "a${my.undefvar}b", keys: varSubst, env: varEnv, want: "a${my.undefvar}b"},
		// ckptlint has no JVM: without a key of that name, ${user.name} is unbound.
		{name: "system property user.name is unbound in ckptlint", value: "/tmp/${user.name}", want: "/tmp/${user.name}"},

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
			got, err := Substitute(tt.value, mapLookup(tt.keys), getenv)
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
	got, err := Substitute("${a}${env.B:-d}", nil, nil)
	if err != nil || got != "${a}${env.B:-d}" {
		t.Errorf("got %q, %v", got, err)
	}
	got, err = Substitute("${env.B:-d}", nil, nil)
	if err != nil || got != "d" {
		t.Errorf("got %q, %v", got, err)
	}
}
