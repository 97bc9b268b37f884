package template

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/parsed"
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

		{"sed percent variable", "hdfs://%NAMENODE_HOST%:8020/flink", Options{}, []Kind{PercentVar}},
		{"Windows variable", "%FLINK_HOME%\\conf", Options{}, []Kind{PercentVar}},
		{"Makefile / Azure DevOps variable", "$(CHECKPOINT_DIR)/$(Build.BuildId)", Options{}, []Kind{DollarParen, DollarParen}},
		{"Octopus variable", "#{Flink.CheckpointDir}", Options{}, []Kind{HashBrace}},
		{"Ruby interpolation", "hdfs://#{node['hadoop']['nn']}:8020", Options{}, []Kind{HashBrace}},
		{"Ruby interpolation in ERB is ERB", `<%= dirs.map { |d| "file://#{d}" }.join(",") %>`, Options{}, []Kind{ERB}},
		{"log pattern conversions run together", "%d{ISO8601} [%t] %-5p %c %x - %m%n", Options{}, nil},
		{"log pattern with a named conversion", "%date %level %logger{36} - %msg%n", Options{}, nil},
		{"JVM file patterns", "-XX:HeapDumpPath=/tmp/heap-%p.hprof -Xloggc:/var/log/gc-%t.log", Options{}, nil},
		{"percent signs", "50% of 100%", Options{}, nil},
		{"URL escapes", "s3://bucket/a%20b%2Fc", Options{}, nil},
		{"doubled percent", "%%HOME%%", Options{}, nil},
		{"escaped $$(VAR)", "$$(VAR)", Options{}, nil},
		{"arithmetic", "$((1+2))", Options{}, []Kind(nil)},
		{"a hash in a value", "color #ff0000 {x}", Options{}, nil},
		// env.java.opts goes through the start scripts' eval: a command
		// substitution runs there (bin/flink-daemon.sh).
		{"command substitution in JVM options", "-Dhost=$(hostname) -Dx=$(VAR)", Options{ShellExpanded: true}, nil},
		{"Flink's own %java% in the start command template", "%java% %jvmmem% %jvmopts% %logging% %class% %args% %redirects%", Options{PercentTemplate: true}, nil},
		{"sed variables elsewhere", "%java% %jvmmem%", Options{}, []Kind{PercentVar, PercentVar}},
		{"Hadoop values", "RULE:[2:$1@$0](.*@EXAMPLE.COM)s/.*/hdfs/", Options{Hadoop: true}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := kinds(Find(tt.s, tt.o)); !slices.Equal(got, tt.want) {
				t.Errorf("Find(%q) = %v, want %v", tt.s, got, tt.want)
			}
		})
	}
}

// TestForKeys: the options For gives a Flink key decide what its value's
// look-alikes are.
func TestForKeys(t *testing.T) {
	opts := For(parsed.FlinkConfLegacy)
	for _, tt := range []struct {
		key, val string
		want     []Kind
	}{
		{"yarn.container-start-command-template", "%java% %jvmmem% %jvmopts% %logging% %class% %args% %redirects%", nil},
		{"env.java.opts.taskmanager", "-Djava.rmi.server.hostname=$(hostname -f) -Dnode=$(NODE)", nil},
		{"state.checkpoints.dir", "hdfs://$(NAMENODE)/flink/%CLUSTER%", []Kind{DollarParen, PercentVar}},
	} {
		if got := kinds(Find(tt.val, opts(tt.key))); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q: got %v, want %v", tt.key, tt.val, got, tt.want)
		}
	}
}

// FuzzFind: on any string the matches are in bounds, ordered, apart, and
// each one of the syntaxes; the shell-expanded and Hadoop modes never
// report what is their own semantics.
func FuzzFind(f *testing.F) {
	for _, s := range []string{"${A} $B {{ .Values.x }} {{ y }} {% if %} <%= z %> @V@ %{P} [PLEASE_FILL_IN] __T__",
		"%A% $(B) #{C} %d %m%n $$(D) %%E%% #{if x}", "${env.X:-1} ${user.name} ${a.b}", "-Dx=$(hostname) %java%", "{{", "<%", "#{", "$(", "%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, o := range []Options{{}, {ShellExpanded: true}, {PercentTemplate: true}, {Hadoop: true, SystemProperty: func(n string) bool { return n == "user.name" }}} {
			end := 0
			for _, m := range Find(s, o) {
				if m.Start < end || m.End <= m.Start || m.End > len(s) {
					t.Fatalf("%q %+v: match %+v after %d", s, o, m, end)
				}
				end = m.End
				if o.ShellExpanded && (m.Kind == ShellBrace || m.Kind == ShellBare || m.Kind == DollarParen) ||
					o.PercentTemplate && m.Kind == PercentVar {
					t.Fatalf("%q %+v: %s is the value's own semantics", s, o, m.Kind)
				}
			}
		}
	})
}

// TestNewFormsOnRealFiles: %VAR%, $(VAR) and #{VAR} fire on no line of
// the repository's fixtures nor of ../shared/corpus (when present), read
// with the options of their format and key: real values hold none of
// them (Bigtop's hdfs-site.xml template has Ruby #{n} inside an ERB tag,
// which is ERB).
func TestNewFormsOnRealFiles(t *testing.T) {
	n := 0
	for _, root := range []string{"../../testdata", "../../../shared/corpus"} {
		if _, err := os.Stat(root); err != nil {
			t.Logf("%s: %v (skipped)", root, err)
			continue
		}
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && !strings.HasSuffix(p, "want.txt") {
				if b, err := os.ReadFile(p); err == nil {
					n++
					noNewForms(t, p, b)
				}
			}
			return nil
		})
	}
	if n == 0 {
		t.Error("no file read")
	}
}

// noNewForms reports a %VAR%, $(VAR) or #{VAR} on a line of file p.
func noNewForms(t *testing.T, p string, b []byte) {
	t.Helper()
	format := parsed.FlinkConfLegacy
	if strings.Contains(p, "site") || strings.HasSuffix(p, ".xml") {
		format = parsed.HadoopHDFSSite
	}
	for i, line := range strings.Split(string(b), "\n") {
		key, _, _ := strings.Cut(strings.TrimSpace(line), ":")
		for _, m := range Find(line, For(format)(key)) {
			if m.Kind == PercentVar || m.Kind == DollarParen || m.Kind == HashBrace {
				t.Errorf("%s:%d: %s in %q", p, i+1, m.Kind, line)
			}
		}
	}
}
