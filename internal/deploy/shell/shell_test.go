package shell

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// render prints a result one fact a line, the way the tests compare it.
func render(res *Result) string {
	var b strings.Builder
	for _, w := range res.Workloads {
		fmt.Fprintf(&b, "workload %q role=%s %s group=%s image=%q\n", w.Name, w.Role, w.Loc, w.Group, w.Image)
		for _, e := range w.Env {
			fmt.Fprintf(&b, "  env %s=%s %s\n", e.Name, e.Value, e.Loc)
		}
	}
	for _, e := range res.Env {
		fmt.Fprintf(&b, "export %s=%s %s\n", e.Name, e.Value, e.Loc)
	}
	for _, t := range res.Texts {
		fmt.Fprintf(&b, "text %s path=%s append=%v %s exact=%v indent=%q\n", t.Name, t.Path, t.Append, t.Loc, t.Exact, t.Indent)
		src := t.Src
		if t.Exact {
			src = src[t.Start:t.End]
		}
		fmt.Fprintf(&b, "  %q\n", src)
	}
	for _, f := range res.Files {
		fmt.Fprintf(&b, "file %s -> %s %s\n", f.Src, f.Dest, f.Loc)
	}
	for _, v := range res.Versions {
		fmt.Fprintf(&b, "version %s %s %s | %s\n", v.Product, v.Version, v.Loc, v.What)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(&b, "note %s\n", n)
	}
	return b.String()
}

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	src, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func TestInstallScript(t *testing.T) {
	src := readFixture(t, "install-flink.sh")
	res := Read("deploy/install-flink.sh", src)
	got := render(res)
	// The heredocs are Exact at their lines (24, and 33 under <<- whose
	// tabs the shell strips); the echo and tee appends are not; the
	// variables expand where the script set them ($(hadoop classpath) is
	// kept as written); FLINK_HOME follows the start script's path, and
	// jobmanager.sh stop starts nothing.
	want := `workload "start-cluster.sh" role=session deploy/install-flink.sh:42 group=deploy/install-flink.sh image=""
  env HADOOP_HOME=/usr/hdp/current/hadoop-client deploy/install-flink.sh:15
  env HADOOP_CONF_DIR=/usr/hdp/current/hadoop-client/conf deploy/install-flink.sh:16
  env HADOOP_CLASSPATH=$(hadoop classpath) deploy/install-flink.sh:17
  env FLINK_HOME=/opt/flink-1.17.1 deploy/install-flink.sh:42
workload "taskmanager.sh start" role=taskmanager deploy/install-flink.sh:43 group=deploy/install-flink.sh image=""
  env HADOOP_HOME=/usr/hdp/current/hadoop-client deploy/install-flink.sh:15
  env HADOOP_CONF_DIR=/usr/hdp/current/hadoop-client/conf deploy/install-flink.sh:16
  env HADOOP_CLASSPATH=$(hadoop classpath) deploy/install-flink.sh:17
  env FLINK_CONF_DIR=/etc/flink/conf deploy/install-flink.sh:43
  env FLINK_HOME=/opt/flink-1.17.1 deploy/install-flink.sh:43
workload "flink run" role=client deploy/install-flink.sh:44 group=deploy/install-flink.sh image=""
  env HADOOP_HOME=/usr/hdp/current/hadoop-client deploy/install-flink.sh:15
  env HADOOP_CONF_DIR=/usr/hdp/current/hadoop-client/conf deploy/install-flink.sh:16
  env HADOOP_CLASSPATH=$(hadoop classpath) deploy/install-flink.sh:17
  env FLINK_HOME=/opt/flink-1.17.1 deploy/install-flink.sh:44
export HADOOP_HOME=/usr/hdp/current/hadoop-client deploy/install-flink.sh:15
export HADOOP_CONF_DIR=/usr/hdp/current/hadoop-client/conf deploy/install-flink.sh:16
export HADOOP_CLASSPATH=$(hadoop classpath) deploy/install-flink.sh:17
text flink-conf.yaml path=/opt/flink-1.17.1/conf/flink-conf.yaml append=false deploy/install-flink.sh:24 exact=true indent=""
  "jobmanager.rpc.address: $(hostname -f)\ntaskmanager.numberOfTaskSlots: 4\nstate.backend.type: rocksdb\nstate.checkpoints.dir: hdfs:///flink/checkpoints\nexecution.checkpointing.interval: 30 s\n"
text core-site.xml path=/usr/hdp/current/hadoop-client/conf/core-site.xml append=false deploy/install-flink.sh:33 exact=true indent="\t\t"
  "  <configuration>\n    <property><name>fs.defaultFS</name><value>hdfs://nn1:8020</value></property>\n  </configuration>\n"
text flink-conf.yaml path=/opt/flink-1.17.1/conf/flink-conf.yaml append=true deploy/install-flink.sh:39 exact=false indent=""
  "execution.checkpointing.timeout: 10 min\n"
text flink-conf.yaml path=/opt/flink-1.17.1/conf/flink-conf.yaml append=true deploy/install-flink.sh:40 exact=false indent=""
  "high-availability.storageDir: hdfs:///flink/ha\n"
file https://archive.apache.org/dist/flink/flink-1.17.1/flink-1.17.1-bin-scala_2.12.tgz -> /tmp/flink-1.17.1-bin-scala_2.12.tgz deploy/install-flink.sh:11
file https://archive.apache.org/dist/flink/flink-1.17.1/flink-1.17.1-bin-scala_2.12.tgz -> /tmp/flink-1.17.1-bin-scala_2.12.tgz deploy/install-flink.sh:12
file /opt/flink-1.17.1/opt/flink-s3-fs-hadoop-1.17.1.jar -> /opt/flink-1.17.1/plugins/s3-fs-hadoop/flink-s3-fs-hadoop-1.17.1.jar deploy/install-flink.sh:21
version flink 1.17.1 deploy/install-flink.sh:5 | FLINK_VERSION=1.17.1
version flink 1.17.1 deploy/install-flink.sh:12 | tarball flink-1.17.1-bin-scala_2.12.tgz
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, tx := range res.Texts {
		checkText(t, src, tx)
	}
}

// checkText holds a Text to the contract of internal/deploy: an Exact
// one is the container with every byte before Start blank (line breaks
// kept), its content at the container's offsets (a <<- heredoc's tabs
// read as spaces), cut at End.
func checkText(t *testing.T, container []byte, tx *deploy.Text) {
	t.Helper()
	if !tx.Exact {
		return
	}
	if tx.Start < 0 || tx.Start > tx.End || tx.End > len(container) || len(tx.Src) != tx.End {
		t.Fatalf("%s: Start %d End %d len(Src) %d, container %d bytes", tx.Loc, tx.Start, tx.End, len(tx.Src), len(container))
	}
	for i := 0; i < tx.Start; i++ {
		if c := tx.Src[i]; c != ' ' && c != '\n' && c != '\r' || (c == '\n' || c == '\r') && container[i] != c {
			t.Fatalf("%s: byte %d before the text is %q", tx.Loc, i, c)
		}
	}
	for i := tx.Start; i < tx.End; i++ {
		if tx.Src[i] != container[i] && !(container[i] == '\t' && tx.Src[i] == ' ' && tx.Indent != "") {
			t.Fatalf("%s: byte %d is %q, the container's %q", tx.Loc, i, tx.Src[i], container[i])
		}
	}
	if want := 1 + strings.Count(string(container[:tx.Start]), "\n"); tx.Loc.Line != want {
		t.Errorf("%s: an Exact text starts on line %d", tx.Loc, want)
	}
}

// TestForms covers each way a script writes a configuration file or
// exports a variable, one small script each.
func TestForms(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"quoted delimiter: the body is the bytes written",
			"cat > conf/flink-conf.yaml <<'EOF'\nstate.checkpoints.dir: ${CKPT}\nEOF\n",
			"text flink-conf.yaml path=conf/flink-conf.yaml append=false s:2 exact=true indent=\"\"\n  \"state.checkpoints.dir: ${CKPT}\\n\"\n"},
		{"an escape in an unquoted body: decoded, not Exact",
			"cat <<EOF > /etc/hadoop/conf/core-site.xml\n<value>\\$HOME</value>\nEOF\n",
			"text core-site.xml path=/etc/hadoop/conf/core-site.xml append=false s:2 exact=false indent=\"\"\n  \"<value>$HOME</value>\\n\"\n"},
		{"<<- with lines of different tabs: stripped, not Exact",
			"cat > config.yaml <<-EOF\n\ta:\n\t\tb: 1\nEOF\n",
			"text config.yaml path=config.yaml append=false s:2 exact=false indent=\"\"\n  \"a:\\nb: 1\\n\"\n"},
		{"cat into tee -a",
			"cat <<EOF | tee -a /opt/flink/conf/flink-conf.yaml\nparallelism.default: 2\nEOF\n",
			"text flink-conf.yaml path=/opt/flink/conf/flink-conf.yaml append=true s:2 exact=true indent=\"\"\n  \"parallelism.default: 2\\n\"\n"},
		{"tee with a heredoc, in a working directory",
			"cd /opt/flink && sudo tee conf/flink-conf.yaml >/dev/null <<EOF\na: 1\nEOF\n",
			"text flink-conf.yaml path=/opt/flink/conf/flink-conf.yaml append=false s:2 exact=true indent=\"\"\n  \"a: 1\\n\"\n"},
		{"echo -n and printf",
			"echo -n 'a: 1' > flink-conf.yaml\nprintf 'b: 2\\nc: 100%%\\n' >> flink-conf.yaml\nprintf '%s\\n' x > hdfs-site.xml\n",
			"text flink-conf.yaml path=flink-conf.yaml append=false s:1 exact=false indent=\"\"\n  \"a: 1\"\n" +
				"text flink-conf.yaml path=flink-conf.yaml append=true s:2 exact=false indent=\"\"\n  \"b: 2\\nc: 100%\\n\"\n" +
				"note s:3: printf with a format or arguments writes a configuration file: not read\n"},
		{"other files are not configuration",
			"cat > app.properties <<EOF\na=1\nEOF\necho x > /etc/hosts\n", ""},
		{"exports: declare -x, set -a, a later export; a plain assignment is not exported",
			"A=1\nexport A\ndeclare -x B=2\nC=3\nset -a\nD=4\nset +a\nE=5\n",
			"export A=1 s:1\nexport B=2 s:3\nexport D=4 s:6\n"},
		{"jobmanager.sh start-foreground with a prefix assignment",
			"HADOOP_CONF_DIR=/etc/hadoop/conf exec /opt/flink/bin/jobmanager.sh start-foreground\n",
			"workload \"jobmanager.sh start-foreground\" role=jobmanager s:1 group=s image=\"\"\n  env HADOOP_CONF_DIR=/etc/hadoop/conf s:1\n  env FLINK_HOME=/opt/flink s:1\n"},
		{"sed -i on a configuration file is noted",
			"sed -i 's/^a:.*/a: 2/' /opt/flink/conf/flink-conf.yaml\n",
			"note s:1: sed edits /opt/flink/conf/flink-conf.yaml in place: ckptlint does not apply the edit\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Read("s", []byte(tt.src))
			if got := render(res); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			for _, tx := range res.Texts {
				checkText(t, []byte(tt.src), tx)
			}
		})
	}
}

// TestLimits: a script past MaxBytes, or nested past MaxDepth, is a note
// naming the file and line, never a crash (300,000 nested '(' overflow
// mvdan.cc/sh's recursive parser's stack, which no recover catches).
func TestLimits(t *testing.T) {
	for name, tt := range map[string]struct {
		src  string
		want string
	}{
		"size":     {strings.Repeat("#", MaxBytes+1), "big.sh:1: not read as a shell script: 1048577 bytes; scripts of up to 1048576 bytes are read"},
		"brackets": {"echo hi\n" + strings.Repeat("(", 300000), "big.sh:1: not read as a shell script: line 2: brackets or compound commands nested more than 200 levels deep"},
		"keywords": {strings.Repeat("if a; then ", 90000), "big.sh:1: not read as a shell script: line 1: brackets or compound commands nested more than 200 levels deep"},
		"arith":    {strings.Repeat("((", 20000), "big.sh:1: not read as a shell script: line 1: brackets or compound commands nested more than 200 levels deep"},
	} {
		t.Run(name, func(t *testing.T) {
			res := Read("big.sh", []byte(tt.src))
			if len(res.Notes) != 1 || res.Notes[0] != tt.want {
				t.Errorf("notes %q, want %q", res.Notes, tt.want)
			}
		})
	}
	// Real nesting is far below the bound.
	if res := Read("ok.sh", []byte("for i in 1 2; do if [ -n \"$(echo $(date))\" ]; then case x in y) (echo) ;; esac; fi; done\n")); len(res.Notes) != 0 {
		t.Errorf("notes on a plain script: %q", res.Notes)
	}
}

// FuzzRead: no script makes the reader panic or hang, and every Exact
// text keeps the contract.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"cat > flink-conf.yaml <<EOF\na: 1\nEOF\n", "cat <<-'X' | tee -a core-site.xml\n\t<a/>\n\tX\n",
		"export HADOOP_CLASSPATH=$(hadoop classpath)\n$FLINK_HOME/bin/start-cluster.sh\n",
		"echo -e 'a: 1\\nb: 2' >> conf/config.yaml", "wget -qO- https://x/flink-1.17.1-bin-scala_2.12.tgz | tar xz",
		"cat > hdfs-site.xml <<EOF\n\\$x\nEOF", "cat > flink-conf.yaml <<EOF\nunterminated", strings.Repeat("$(", 300),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		res := Read("f.sh", src)
		for _, tx := range res.Texts {
			checkText(t, src, tx)
		}
	})
}
