package template

import (
	"slices"
	"testing"
)

func kinds(ms []Match) []Kind {
	var out []Kind
	for _, m := range ms {
		out = append(out, m.Kind)
	}
	return out
}

// TestFind covers every syntax of docs/templates.md, and values real
// configurations hold that look alike but are not placeholders.
func TestFind(t *testing.T) {
	tests := []struct {
		name string
		s    string
		o    Options
		want []Kind
	}{
		{"envsubst braces", "hdfs://${NAMENODE}:8020/flink", Options{}, []Kind{ShellBrace}},
		{"envsubst default", "${CHECKPOINT_TIMEOUT:-10min}", Options{}, []Kind{ShellBrace}},
		{"bare shell variable", "$ZK_QUORUM", Options{}, []Kind{ShellBare}},
		{"Helm values", "{{ .Values.flink.checkpointDir | quote }}", Options{}, []Kind{Helm}},
		{"Helm root values", "{{ $.Values.slots }}", Options{}, []Kind{Helm}},
		{"Helm trim markers and keywords", "{{- if .Values.ha }}x{{- end }}", Options{}, []Kind{Helm, Helm}},
		{"Jinja expression", "{{ flink_checkpoint_dir }}", Options{}, []Kind{Jinja}},
		{"Jinja filter", "{{ ckpt | default('hdfs:///c') }}", Options{}, []Kind{Jinja}},
		{"Jinja block", "{% if ha %}", Options{}, []Kind{JinjaBlock}},
		{"ERB", "<%= @parallelism_default %>", Options{}, []Kind{ERB}},
		{"ERB without space", "<%=@rest_port %>", Options{}, []Kind{ERB}},
		{"autoconf / Maven filtering", "@CHECKPOINT_INTERVAL@", Options{}, []Kind{AtVar}},
		{"percent braces", "%{ZK_QUORUM}", Options{}, []Kind{PercentBrace}},
		{"fill-in marker", "[PLEASE_FILL_IN]", Options{}, []Kind{Marker}},
		{"angle marker", "<REPLACE_ME>", Options{}, []Kind{Marker}},
		{"sed token", "__SAVEPOINT_DIR__", Options{}, []Kind{SedToken}},
		{"two in one value", "hdfs://${NN}/$ENV/ckpt", Options{}, []Kind{ShellBrace, ShellBare}},
		{"unclosed Go action", "{{ .Values.x", Options{}, []Kind{Helm}},

		{"plain duration", "10 min", Options{}, nil},
		{"Java inner class", "org.example.Outer$Inner", Options{}, nil},
		{"Kerberos principal", "flink/_HOST@EXAMPLE.COM", Options{}, nil},
		{"e-mail", "ops@example.com", Options{}, nil},
		{"metrics scope variables", "<host>.taskmanager.<tm_id>", Options{}, nil},
		{"log pattern", "%d{yyyy-MM-dd} %-5p %c{1}", Options{}, nil},
		{"JVM options expanded by Flink's scripts", "-Dlog.dir=${FLINK_LOG_DIR} -Dx=$HOME", Options{ShellExpanded: true}, nil},
		{"JVM options keep template tags", "{{ .Values.jvm }}", Options{ShellExpanded: true}, []Kind{Helm}},
		{"Hadoop key reference", "file://${hadoop.tmp.dir}/dfs/data", Options{Hadoop: true}, nil},
		{"Hadoop system property without the JVM's names", "/tmp/hadoop-${user.name}", Options{Hadoop: true}, nil},
		// Configuration.substituteVars reads System.getProperty before a key
		// (Hadoop 3.4.1 L1190-1196): the JVM's value, unknown to ckptlint
		{"Hadoop system property", "/tmp/hadoop-${user.name}", Options{Hadoop: true, SystemProperty: func(n string) bool { return n == "user.name" }}, []Kind{HadoopJVM}},
		{"Hadoop key that is no system property", "${hadoop.tmp.dir}", Options{Hadoop: true, SystemProperty: func(n string) bool { return n == "user.name" }}, nil},
		{"Hadoop environment reference with a default", "${env.BS:-1m}", Options{Hadoop: true}, []Kind{HadoopEnv}},
		{"Hadoop environment reference", "${env.HDFS_BLOCKSIZE}", Options{Hadoop: true}, []Kind{HadoopEnv}},
		{"Hadoop cannot resolve an env-style name", "${DFS_REPLICATION}", Options{Hadoop: true}, []Kind{ShellBrace}},
		{"dollar sign alone", "cost$", Options{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := kinds(Find(tt.s, tt.o)); !slices.Equal(got, tt.want) {
				t.Errorf("Find(%q) = %v, want %v", tt.s, got, tt.want)
			}
		})
	}
}
