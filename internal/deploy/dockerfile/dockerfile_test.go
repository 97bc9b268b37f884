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

func TestFlinkHadoopImage(t *testing.T) {
	b, notes, _ := read(t, "flink-hadoop/Dockerfile", "")
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

func TestMultiStage(t *testing.T) {
	b, notes, _ := read(t, "multistage/flink.Dockerfile", ".")
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
