package dockerfile

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// render prints a Build one fact a line, the way the tests compare it.
func render(b *deploy.Build, notes []string) string {
	var s strings.Builder
	fmt.Fprintf(&s, "from %s %s\n", b.From, b.FromLoc)
	for _, st := range b.Stages {
		fmt.Fprintf(&s, "stage %q from %s image %q %s\n", st.Name, st.From, st.Image, st.Loc)
	}
	for _, e := range b.Env {
		fmt.Fprintf(&s, "env %s=%s %s\n", e.Name, e.Value, e.Loc)
	}
	for _, c := range b.Copies {
		fmt.Fprintf(&s, "copy %s -> %s %s\n", c.Src, c.Dest, c.Loc)
	}
	for _, j := range b.Jars {
		fmt.Fprintf(&s, "jar %s -> %s %s\n", j.Src, j.Dest, j.Loc)
	}
	for _, t := range b.Texts {
		src := t.Src
		if t.Exact {
			src = src[t.Start:t.End]
		}
		fmt.Fprintf(&s, "text %s path=%s append=%v %s exact=%v %q\n", t.Name, t.Path, t.Append, t.Loc, t.Exact, src)
	}
	for _, v := range b.Versions {
		fmt.Fprintf(&s, "version %s %s %s | %s\n", v.Product, v.Version, v.Loc, v.What)
	}
	for _, n := range notes {
		fmt.Fprintf(&s, "note %s\n", n)
	}
	return s.String()
}

func read(t *testing.T, file, context string) (*deploy.Build, []string, []byte) {
	t.Helper()
	src, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	b, notes := Read("deploy/"+file, src, context)
	return b, notes, src
}

// TestFlinkHadoopImage: an image built on the official one, with the
// Hadoop client configuration copied in, the pre-bundled Hadoop jar in
// lib/ and S3 as a plugin. $FLINK_HOME and ./ resolve against the
// official image's /opt/flink; the global ARG reaches the stage through a
// bare ARG; the echo is an append to flink-conf.yaml; a COPY heredoc of a
// log4j file is no configuration text, one of yarn-site.xml is.
func TestFlinkHadoopImage(t *testing.T) {
	b, notes, src := read(t, "flink-hadoop/Dockerfile", "")
	for _, tx := range b.Texts {
		checkText(t, src, tx)
	}
	got := render(b, notes)
	want := `from flink:1.17.2-scala_2.12-java11 deploy/flink-hadoop/Dockerfile:5
stage "" from flink:1.17.2-scala_2.12-java11 image "flink:1.17.2-scala_2.12-java11" deploy/flink-hadoop/Dockerfile:5
env HADOOP_CONF_DIR=/etc/hadoop/conf deploy/flink-hadoop/Dockerfile:9
env HADOOP_HOME=/opt/hadoop-3.3.6 deploy/flink-hadoop/Dockerfile:9
copy deploy/flink-hadoop/conf/flink-conf.yaml -> /opt/flink/conf/ deploy/flink-hadoop/Dockerfile:12
copy deploy/flink-hadoop/hadoop-conf/core-site.xml -> /etc/hadoop/conf/ deploy/flink-hadoop/Dockerfile:13
copy deploy/flink-hadoop/hadoop-conf/hdfs-site.xml -> /etc/hadoop/conf/ deploy/flink-hadoop/Dockerfile:13
jar https://repo.maven.apache.org/maven2/org/apache/flink/flink-shaded-hadoop-2-uber/2.8.3-10.0/flink-shaded-hadoop-2-uber-2.8.3-10.0.jar -> /opt/flink/lib/flink-shaded-hadoop-2-uber-2.8.3-10.0.jar deploy/flink-hadoop/Dockerfile:14
jar /opt/flink/opt/flink-s3-fs-hadoop-1.17.2.jar -> /opt/flink/plugins/s3-fs-hadoop/flink-s3-fs-hadoop-1.17.2.jar deploy/flink-hadoop/Dockerfile:17
text flink-conf.yaml path=/opt/flink/conf/flink-conf.yaml append=true deploy/flink-hadoop/Dockerfile:20 exact=false "fs.hdfs.hadoopconf: /etc/hadoop/conf\n"
text yarn-site.xml path=/etc/hadoop/conf/yarn-site.xml append=false deploy/flink-hadoop/Dockerfile:30 exact=true "<configuration/>\n"
version flink 1.17.2 deploy/flink-hadoop/Dockerfile:4 | ARG FLINK_VERSION=1.17.2
version hadoop 3.3.6 deploy/flink-hadoop/Dockerfile:8 | ARG HADOOP_VERSION=3.3.6
version hadoop 2.8.3 deploy/flink-hadoop/Dockerfile:14 | jar flink-shaded-hadoop-2-uber-2.8.3-10.0.jar
version hadoop 3.3.6 deploy/flink-hadoop/Dockerfile:22 | tarball hadoop-3.3.6.tar.gz
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestMultiStage: the image is built FROM an earlier stage (its FROM
// resolves through it, its ENV and copies carry over), copies the Hadoop
// configuration out of a stage that copied it from the repository
// (mapped to the repository directory), and a jar out of a build stage;
// the RUN heredoc writing core-site.xml is Exact in the Dockerfile.
func TestMultiStage(t *testing.T) {
	b, notes, src := read(t, "multistage/flink.Dockerfile", ".")
	for _, tx := range b.Texts {
		checkText(t, src, tx)
	}
	got := render(b, notes)
	want := `from eclipse-temurin:11-jre deploy/multistage/flink.Dockerfile:13
stage "build" from maven:3.9-eclipse-temurin-11 image "maven:3.9-eclipse-temurin-11" deploy/multistage/flink.Dockerfile:3
stage "hadoop-conf" from alpine:3.19 image "alpine:3.19" deploy/multistage/flink.Dockerfile:9
stage "flink" from eclipse-temurin:11-jre image "eclipse-temurin:11-jre" deploy/multistage/flink.Dockerfile:13
stage "" from flink image "eclipse-temurin:11-jre" deploy/multistage/flink.Dockerfile:26
env FLINK_HOME=/opt/flink deploy/multistage/flink.Dockerfile:15
env HADOOP_CONF_DIR=/etc/hadoop/conf deploy/multistage/flink.Dockerfile:27
copy deploy/flink -> /opt/flink/conf/ deploy/multistage/flink.Dockerfile:19
copy deploy/hadoop -> /etc/hadoop/conf deploy/multistage/flink.Dockerfile:28
jar /src/target/lib/hadoop-hdfs-client-3.3.6.jar -> /opt/flink/lib/hadoop-hdfs-client-3.3.6.jar deploy/multistage/flink.Dockerfile:29
text core-site.xml path=/opt/flink/conf/core-site.xml append=false deploy/multistage/flink.Dockerfile:21 exact=true "<configuration>\n  <property><name>fs.defaultFS</name><value>hdfs://nn1:8020</value></property>\n</configuration>\n"
version flink 1.18.1 deploy/multistage/flink.Dockerfile:14 | ARG FLINK_VERSION=1.18.1
version flink 1.18.1 deploy/multistage/flink.Dockerfile:17 | tarball flink-1.18.1-bin-scala_2.12.tgz
version hadoop 3.3.6 deploy/multistage/flink.Dockerfile:29 | jar hadoop-hdfs-client-3.3.6.jar
note deploy/multistage/flink.Dockerfile:11: sed edits /conf/hadoop/core-site.xml in place: ckptlint does not apply the edit
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestIsDockerfile(t *testing.T) {
	for name, want := range map[string]bool{
		"Dockerfile": true, "dockerfile": true, "Dockerfile_env": true, "Dockerfile.flink": true, "Dockerfile-dev": true,
		"flink.Dockerfile": true, "base.dockerfile": true, "Containerfile": true, "deploy/Dockerfile": true,
		"Dockerfile.bak": false, "Dockerfile.orig": false, "Dockerfile~": false, ".#Dockerfile": false, ".Dockerfile.swp": false,
		"Dockerfile.dockerignore": false, "dockerfile.go": false, "dockerfile_test.go": false, "Dockerfile.json": false, ".dockerignore": false, "docker-compose.yml": false, "Dockerfile.md": false,
	} {
		if got := IsDockerfile(name); got != want {
			t.Errorf("IsDockerfile(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestForms covers the instructions one by one.
func TestForms(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"FROM expands only the ARGs before the first FROM",
			"ARG V=1.16.3\nFROM flink:${V} AS a\nENV W=1.17.0\nFROM flink:${W}\n",
			"from  d/Dockerfile:4\n" +
				"stage \"a\" from flink:1.16.3 image \"flink:1.16.3\" d/Dockerfile:2\nstage \"\" from flink:${W} image \"\" d/Dockerfile:4\n"},
		{"relative destinations against WORKDIR, sources clamped to the context",
			"FROM eclipse-temurin:17\nWORKDIR /opt/flink\nCOPY ../../conf/flink-conf.yaml conf/\nCOPY [\"hadoop conf/core-site.xml\", \"/etc/hadoop/\"]\n",
			"from eclipse-temurin:17 d/Dockerfile:1\nstage \"\" from eclipse-temurin:17 image \"eclipse-temurin:17\" d/Dockerfile:1\n" +
				"copy ctx/conf/flink-conf.yaml -> /opt/flink/conf/ d/Dockerfile:3\ncopy ctx/hadoop conf/core-site.xml -> /etc/hadoop/ d/Dockerfile:4\n"},
		{"COPY <<EOF with <<- tabs, and RUN <<EOF running cat",
			"FROM flink:1.18\nCOPY <<-EOF /opt/flink/conf/flink-conf.yaml\n\ta: 1\n\tb: 2\n\tEOF\nRUN <<EOF\ncat > conf/core-site.xml <<'XML'\n<configuration/>\nXML\nEOF\n",
			"from flink:1.18 d/Dockerfile:1\nstage \"\" from flink:1.18 image \"flink:1.18\" d/Dockerfile:1\n" +
				"text flink-conf.yaml path=/opt/flink/conf/flink-conf.yaml append=false d/Dockerfile:3 exact=true \" a: 1\\n b: 2\\n\"\n" +
				"text core-site.xml path=/opt/flink/conf/core-site.xml append=false d/Dockerfile:8 exact=true \"<configuration/>\\n\"\n"},
		{"an escape in an expanded heredoc: not Exact",
			"FROM flink:1.18\nCOPY <<EOF /opt/flink/conf/flink-conf.yaml\nenv.java.opts: -Dx=\\$HOME\nEOF\n",
			"from flink:1.18 d/Dockerfile:1\nstage \"\" from flink:1.18 image \"flink:1.18\" d/Dockerfile:1\n" +
				"text flink-conf.yaml path=/opt/flink/conf/flink-conf.yaml append=false d/Dockerfile:2 exact=false \"env.java.opts: -Dx=\\\\$HOME\\n\"\n"},
		{"ENV legacy form, HADOOP_CLASSPATH, ENV FLINK_VERSION",
			"FROM ubuntu:22.04\nENV FLINK_VERSION 1.13.6\nENV HADOOP_CLASSPATH=/opt/hadoop/etc/hadoop:/opt/hadoop/share/hadoop/common/*\n",
			"from ubuntu:22.04 d/Dockerfile:1\nstage \"\" from ubuntu:22.04 image \"ubuntu:22.04\" d/Dockerfile:1\n" +
				"env FLINK_VERSION=1.13.6 d/Dockerfile:2\nenv HADOOP_CLASSPATH=/opt/hadoop/etc/hadoop:/opt/hadoop/share/hadoop/common/* d/Dockerfile:3\n" +
				"version flink 1.13.6 d/Dockerfile:2 | ENV FLINK_VERSION=1.13.6\n"},
		{"a parse error is a note at its line",
			"FROM flink:1.18\nRUN <<EOF\nnever ends\n",
			"from  \nnote d/Dockerfile:2: not read as a Dockerfile: unterminated heredoc\n"},
		{"an empty Dockerfile",
			"# nothing\n",
			"from  \nnote d/Dockerfile:1: not read as a Dockerfile: file with no instructions\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, notes := Read("d/Dockerfile", []byte(tt.src), "ctx")
			if got := render(b, notes); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			for _, tx := range b.Texts {
				checkText(t, []byte(tt.src), tx)
			}
		})
	}
}

// TestLimits: a Dockerfile past MaxBytes, or with a line past BuildKit's
// 64 KiB, is a note; so are more than maxStages stages.
func TestLimits(t *testing.T) {
	_, notes := Read("big/Dockerfile", []byte("FROM flink:1.18\n"+strings.Repeat("#", MaxBytes)), "")
	if len(notes) != 1 || !strings.Contains(notes[0], "big/Dockerfile: not read: 1048592 bytes") {
		t.Errorf("size: %q", notes)
	}
	_, notes = Read("long/Dockerfile", []byte("FROM flink:1.18\nRUN echo "+strings.Repeat("x", 70000)+"\n"), "")
	if len(notes) != 1 || !strings.Contains(notes[0], "dockerfile line greater than max allowed size") {
		t.Errorf("line: %q", notes)
	}
	b, notes := Read("stages/Dockerfile", []byte(strings.Repeat("FROM alpine\n", 200)), "")
	if len(b.Stages) != maxStages || len(notes) != 1 || !strings.Contains(notes[0], "stages/Dockerfile:129: more than 128 build stages") {
		t.Errorf("stages: %d, %q", len(b.Stages), notes)
	}
}

// checkText holds an Exact Text to the contract of internal/deploy (see
// internal/deploy/shell's test of the same name).
func checkText(t *testing.T, container []byte, tx *deploy.Text) {
	t.Helper()
	if !tx.Exact {
		return
	}
	if tx.Start < 0 || tx.Start > tx.End || tx.End > len(container) || len(tx.Src) != tx.End {
		t.Fatalf("%s: Start %d End %d len(Src) %d, container %d bytes", tx.Loc, tx.Start, tx.End, len(tx.Src), len(container))
	}
	for i := range tx.End {
		want := container[i]
		if i < tx.Start && want != '\n' && want != '\r' || want == '\t' && tx.Indent != "" && tx.Src[i] == ' ' {
			want = ' '
		}
		if tx.Src[i] != want {
			t.Fatalf("%s: byte %d is %q, want %q", tx.Loc, i, tx.Src[i], want)
		}
	}
	if want := 1 + strings.Count(string(container[:tx.Start]), "\n"); tx.Loc.Line != want {
		t.Errorf("%s: an Exact text starts on line %d", tx.Loc, want)
	}
}

// FuzzRead: no Dockerfile makes the reader panic or hang, and every Exact
// text keeps the contract.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"FROM flink:1.17\nRUN echo \\\n  x", "ARG V=1\nFROM a:${V} AS b\nFROM b\nCOPY --from=b /x /y/\n",
		"FROM flink\nCOPY <<EOF /opt/flink/conf/flink-conf.yaml\na: 1\nEOF\n", "FROM x\nRUN <<A <<B\na\nA\nb\nB\n",
		"# escape=`\nFROM x\nRUN echo `\n  hi", "FROM x\nONBUILD RUN <<EOF\nx\nEOF\n", "FROM x\nRUN cat > hdfs-site.xml <<-E\n\t\t<a/>\n\tE\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		b, _ := Read("f/Dockerfile", src, "")
		for _, tx := range b.Texts {
			checkText(t, src, tx)
		}
	})
}
