package compose

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sirupsen/logrus"
)

// readOne reads a compose project made of the given files (display path
// → content), the first being the one read.
func readOne(t *testing.T, first string, files map[string]string, opt Options) Result {
	t.Helper()
	r := repo{}
	for p, s := range files {
		r[p] = []byte(s)
	}
	return Read(first, r[first], r.read, opt)
}

func notes(res Result) string { return strings.Join(res.Notes, "\n") }

func wantNote(t *testing.T, res Result, parts ...string) {
	t.Helper()
	for _, n := range res.Notes {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(n, p)
		}
		if ok {
			return
		}
	}
	t.Errorf("no note with %q in:\n%s", parts, notes(res))
}

func TestAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("x-a: &a [\"" + strings.Repeat("x", 100) + "\"]\n")
	prev := "a"
	for i := range 12 {
		name := string(rune('b' + i))
		b.WriteString("x-" + name + ": &" + name + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n")
		prev = name
	}
	b.WriteString("services:\n  jm:\n    image: flink\n    command: *" + prev + "\n")
	res := readOne(t, "repo/docker-compose.yml", map[string]string{"repo/docker-compose.yml": b.String()}, Options{})
	if len(res.Workloads) != 0 {
		t.Errorf("an alias bomb was read: %d workloads", len(res.Workloads))
	}
	wantNote(t, res, "repo/docker-compose.yml:", "alias bomb")
}

func TestBadInputNamesTheLine(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"yaml syntax", "services:\n  jm:\n    image: flink\n   bad: [\n", "repo/docker-compose.yml: not read: line"},
		{"compose schema", "services:\n  jm:\n    image: flink\n    deploy:\n      replicas: many\n", "repo/docker-compose.yml:5: not read: compose-go refuses the project"},
		{"not a mapping", "- a\n- b\n", "repo/docker-compose.yml: not read: compose-go refuses the project: top-level object must be a mapping"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := readOne(t, "repo/docker-compose.yml", map[string]string{"repo/docker-compose.yml": c.src}, Options{})
			wantNote(t, res, c.want)
		})
	}
}

func TestUnknownReplicas(t *testing.T) {
	res := readOne(t, "repo/docker-compose.yml", map[string]string{"repo/docker-compose.yml": "services:\n  tm:\n    image: flink:1.20\n    command: taskmanager\n    deploy:\n      replicas: ${TM_REPLICAS}\n  jm:\n    image: flink:1.20\n    scale: ${JM:-1}\n"}, Options{})
	if len(res.Workloads) != 2 {
		t.Fatalf("workloads %v, notes %s", res.Workloads, notes(res))
	}
	jm, tm := res.Workloads[0], res.Workloads[1]
	if tm.Replicas != 0 || jm.Replicas != 1 || jm.ReplicasLoc.Line != 9 {
		t.Errorf("replicas: tm %d (want unknown, 0), jm %d at %s (want 1 at :9, the default)", tm.Replicas, jm.Replicas, jm.ReplicasLoc)
	}
	wantNote(t, res, "repo/docker-compose.yml:6: deploy.replicas is ${TM_REPLICAS}", "unknown")
}

func TestProjectName(t *testing.T) {
	svc := "services:\n  jm:\n    image: flink\n"
	for _, c := range []struct {
		name  string
		files map[string]string
		first string
		opt   Options
		want  string
	}{
		{"directory", map[string]string{"deploy/Flink_Stack/compose.yaml": svc}, "deploy/Flink_Stack/compose.yaml", Options{}, "flink_stack"},
		{"working directory", map[string]string{"compose.yaml": svc}, "compose.yaml", Options{DirName: "My-Repo"}, "my-repo"},
		{"no name at all", map[string]string{"compose.yaml": svc}, "compose.yaml", Options{}, "default"},
		{"name:", map[string]string{"d/compose.yaml": "name: ${STACK:-flinkprod}\n" + svc}, "d/compose.yaml", Options{}, "flinkprod"},
		{".env", map[string]string{"d/compose.yaml": "name: ignored\n" + svc, "d/.env": "COMPOSE_PROJECT_NAME=fromenv\n"}, "d/compose.yaml", Options{}, "fromenv"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := readOne(t, c.first, c.files, c.opt)
			if res.Project != c.want || len(res.Workloads) != 1 || res.Workloads[0].Group != c.want {
				t.Errorf("project %q (want %q), workloads %v, notes %s", res.Project, c.want, res.Workloads, notes(res))
			}
		})
	}
}

// TestNeverReadsTheDisk: files that exist on disk beside the test but
// not in the repository the callback serves are never read, whatever
// the compose file names: extends.file, env_file, include, a .env in the
// working directory.
func TestNeverReadsTheDisk(t *testing.T) {
	for _, p := range []string{"testdata/stack/common.yml", "testdata/stack/flink.env", "testdata/stack/docker-compose.yml"} {
		if _, err := os.Stat(p); err != nil {
			t.Fatal(err)
		}
	}
	src := `include:
  - testdata/stack/docker-compose.yml
services:
  tm:
    extends:
      file: testdata/stack/common.yml
      service: flink-base
    env_file:
      - path: testdata/stack/flink.env
        required: true
    command: taskmanager
`
	res := readOne(t, "docker-compose.yml", map[string]string{"docker-compose.yml": src}, Options{DirName: "x"})
	if len(res.Workloads) != 1 {
		t.Fatalf("workloads %v; notes %s", res.Workloads, notes(res))
	}
	w := res.Workloads[0]
	if w.Image != "" || len(w.Env) != 0 || len(w.Mounts) != 0 {
		t.Errorf("read from disk: image %q env %v mounts %v", w.Image, w.Env, w.Mounts)
	}
	wantNote(t, res, "docker-compose.yml:6: extends.file testdata/stack/common.yml")
	wantNote(t, res, "env_file testdata/stack/flink.env not read")
	wantNote(t, res, "docker-compose.yml:1: include: is not followed")
}

func TestExtendsAcrossDirectories(t *testing.T) {
	files := map[string]string{
		"repo/app/compose.yaml": `services:
  jm:
    extends: {file: ../common/base.yml, service: plain}
    command: jobmanager
  tm:
    extends: {file: ../common/base.yml, service: relative}
    command: taskmanager
  loop:
    extends: {file: loop.yml, service: a}
`,
		"repo/app/loop.yml": `services:
  a:
    image: flink
    extends: {file: loop.yml, service: b}
  b:
    extends: {file: loop.yml, service: a}
`,
		"repo/common/base.yml": `services:
  plain:
    image: flink:1.19.1
    environment:
      HADOOP_CONF_DIR: /etc/hadoop/conf
  relative:
    image: flink:1.19.1
    volumes:
      - ./conf:/opt/flink/conf
`,
	}
	res := readOne(t, "repo/app/compose.yaml", files, Options{})
	byName := map[string]int{}
	for i, w := range res.Workloads {
		byName[w.Name] = i
	}
	jm := res.Workloads[byName["jm"]]
	if jm.Image != "flink:1.19.1" || jm.ImageLoc.String() != "repo/common/base.yml:3" || len(jm.Env) != 1 || jm.Env[0].Loc.String() != "repo/common/base.yml:5" {
		t.Errorf("jm: image %q at %s, env %v", jm.Image, jm.ImageLoc, jm.Env)
	}
	if tm := res.Workloads[byName["tm"]]; tm.Image != "" || len(tm.Mounts) != 0 {
		t.Errorf("tm took a base whose relative paths resolve elsewhere: %+v", tm)
	}
	wantNote(t, res, "repo/app/compose.yaml:6: extends.file ../common/base.yml", "another directory")
	wantNote(t, res, "cycle")
	for _, w := range res.Workloads {
		if strings.HasPrefix(w.Name, "ckptlint-extends") {
			t.Errorf("an inlined base is a workload: %s", w.Name)
		}
	}
}

// TestLogrusSilent: compose-go's warnings never reach ckptlint's output,
// and the standard logger is given back as it was.
func TestLogrusSilent(t *testing.T) {
	var buf bytes.Buffer
	std := logrus.StandardLogger()
	old := std.Out
	std.SetOutput(&buf)
	defer std.SetOutput(old)
	res := readOne(t, "repo/docker-compose.yml", map[string]string{"repo/docker-compose.yml": "version: '3.8'\nservices:\n  jm:\n    image: flink:${UNSET}\n    environment:\n      X: ${A:-$B}\n    volumes:\n      - ${C:-$D}/x:/x\n    external_links: [\"yes\"]\n"}, Options{})
	if len(res.Workloads) != 1 {
		t.Fatal(notes(res))
	}
	if buf.Len() != 0 {
		t.Errorf("compose-go logged: %s", buf.String())
	}
	if std.Out != &buf {
		t.Errorf("the standard logger's output was not restored")
	}
	logrus.Warn("after")
	if !strings.Contains(buf.String(), "after") {
		t.Errorf("logging after Read is lost")
	}
}

func TestWhichFiles(t *testing.T) {
	svc := "services:\n  jm:\n    image: flink\n"
	files := map[string]string{"d/compose.yaml": svc, "d/docker-compose.yml": svc, "d/docker-compose.override.yml": svc,
		"d/.env": "COMPOSE_FILE=a.yml:b.yml\n"}
	res := readOne(t, "d/docker-compose.yml", files, Options{})
	if got := strings.Join(res.Files, " "); got != "d/docker-compose.yml d/docker-compose.override.yml" {
		t.Errorf("files %s", got)
	}
	wantNote(t, res, "d/docker-compose.yml: docker compose reads d/compose.yaml, not this file")
	wantNote(t, res, "d/.env:1: COMPOSE_FILE")
	res = readOne(t, "d/docker-compose.override.yml", files, Options{})
	if got := strings.Join(res.Files, " "); got != "d/compose.yaml d/docker-compose.override.yml" {
		t.Errorf("files of the override %s, want the base docker compose takes first", got)
	}
}

// TestFlinkPropertiesForms: FLINK_PROPERTIES is Exact only as a literal
// block that compose gives the container as written (docs/deployment.md
// "docker-compose"); every other form is the decoded value at the
// variable's line.
func TestFlinkPropertiesForms(t *testing.T) {
	const head = "services:\n  jm:\n    image: flink:1.18\n    command: jobmanager\n    environment:\n"
	for _, c := range []struct {
		name, env string
		exact     bool
		line      int    // Loc of the text
		first     int    // line of the first content byte, when Exact
		value     string // what the container gets
	}{
		{"mapping literal", "      FLINK_PROPERTIES: |\n        a: 1\n        b: 2\n", true, 6, 7, "a: 1\nb: 2\n"},
		{"mapping literal, strip, indicator", "      FLINK_PROPERTIES: |2-\n          a: 1\n", true, 6, 7, "  a: 1"},
		{"list item literal", "      - |\n        FLINK_PROPERTIES=\n        a: 1\n", true, 7, 8, "\na: 1\n"},
		{"undefined variable stays as written", "      FLINK_PROPERTIES: |\n        state.checkpoints.dir: ${CKPT}\n", true, 6, 7, "state.checkpoints.dir: ${CKPT}\n"},
		{"variable .env defines", "      FLINK_PROPERTIES: |\n        parallelism.default: ${PAR}\n", false, 6, 0, "parallelism.default: 4\n"},
		{"$$ for the container's envsubst", "      FLINK_PROPERTIES: |\n        jobmanager.rpc.address: $${HOSTNAME}\n", false, 6, 0, "jobmanager.rpc.address: ${HOSTNAME}\n"},
		{"one-line list item", "      - \"FLINK_PROPERTIES=a: 1\"\n", false, 6, 0, "a: 1"},
		{"quoted", "      FLINK_PROPERTIES: \"a: 1\\nb: 2\\n\"\n", false, 6, 0, "a: 1\nb: 2\n"},
		{"folded", "      FLINK_PROPERTIES: >\n        a: 1\n\n        b: 2\n", false, 6, 0, "a: 1\nb: 2\n"},
		{"list item with text on the name line", "      - |\n        FLINK_PROPERTIES=a: 1\n        b: 2\n", false, 7, 0, "a: 1\nb: 2\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := repo{"repo/d/docker-compose.yml": []byte(head + c.env), "repo/d/.env": []byte("PAR=4\n")}
			res := Read("repo/d/docker-compose.yml", r["repo/d/docker-compose.yml"], r.read, Options{})
			if len(res.Workloads) != 1 || len(res.Workloads[0].Env) != 1 || res.Workloads[0].Env[0].Text == nil {
				t.Fatalf("workloads %+v; notes %s", res.Workloads, notes(res))
			}
			e := res.Workloads[0].Env[0]
			tx := e.Text
			if e.Value != c.value || tx.Exact != c.exact || tx.Loc.String() != fmt.Sprintf("repo/d/docker-compose.yml:%d", c.line) || tx.Path != "" {
				t.Errorf("value %q exact %v at %s path %q; want %q exact %v at :%d, no path", e.Value, tx.Exact, tx.Loc, tx.Path, c.value, c.exact, c.line)
			}
			if !c.exact {
				if string(tx.Src) != c.value {
					t.Errorf("Src %q, want the decoded value %q", tx.Src, c.value)
				}
				return
			}
			if got := strings.Count(string(r["repo/d/docker-compose.yml"][:tx.Start]), "\n") + 1; got != c.first {
				t.Errorf("first content byte on line %d, want %d", got, c.first)
			}
			checkTexts(t, r, res)
		})
	}
}

// TestSiteTexts: bde2020's entrypoint (big-data-europe/docker-hadoop
// base/entrypoint.sh) writes CORE_CONF_*/HDFS_CONF_* through an unquoted
// echo (runs of white space become one) and sed (& \ < are not written
// as declared: a note, not read); other prefixes are not read.
func TestSiteTexts(t *testing.T) {
	src := `services:
  namenode:
    image: bde2020/hadoop-namenode:2.0.0-hadoop3.2.1-java8
    environment:
      CORE_CONF_fs_defaultFS: hdfs://namenode:9000
      CORE_CONF_hadoop_proxyuser_hue_groups: "a   b"
      CORE_CONF_ha_zookeeper_quorum: "zk1:2181&zk2:2181"
      HDFS_CONF_dfs_namenode_datanode_registration_ip___hostname___check: "false"
      YARN_CONF_yarn_log___aggregation___enable: "true"
`
	res := readOne(t, "repo/h/docker-compose.yml", map[string]string{"repo/h/docker-compose.yml": src}, Options{})
	if len(res.Workloads) != 1 {
		t.Fatalf("workloads %v; notes %s", res.Workloads, notes(res))
	}
	got := map[string]string{}
	for _, tx := range res.Workloads[0].Texts {
		got[tx.Path] = string(tx.Src)
		if tx.Exact || tx.Container != "repo/h/docker-compose.yml" {
			t.Errorf("%s: exact %v in %s", tx.Path, tx.Exact, tx.Container)
		}
	}
	want := map[string]string{
		"/etc/hadoop/core-site.xml": "<configuration>\n\n\n\n" +
			"<property><name>fs.defaultFS</name><value>hdfs://namenode:9000</value></property>\n" +
			"<property><name>hadoop.proxyuser.hue.groups</name><value>a b</value></property></configuration>\n",
		"/etc/hadoop/hdfs-site.xml": "<configuration>\n\n\n\n\n\n\n" +
			"<property><name>dfs.namenode.datanode.registration.ip-hostname-check</name><value>false</value></property></configuration>\n",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("texts (-want +got):\n%s", diff)
	}
	wantNote(t, res, "repo/h/docker-compose.yml:7: CORE_CONF_ha_zookeeper_quorum holds &", "not read")
}

// TestVolumeKinds: a named volume (NFS by its driver_opts, with a
// subpath), an anonymous volume, a named one and tmpfs, each at its line.
func TestVolumeKinds(t *testing.T) {
	src := `services:
  tm:
    image: flink:1.20
    command: taskmanager
    volumes:
      - type: volume
        source: ckpt
        target: /checkpoints
        volume:
          subpath: cluster-a
      - /scratch
      - state:/state
    tmpfs:
      - /run:size=64m
volumes:
  ckpt:
    driver: local
    driver_opts: {type: nfs, o: "addr=nfs.example,rw", device: ":/export/flink"}
  state: {}
`
	res := readOne(t, "repo/v/compose.yaml", map[string]string{"repo/v/compose.yaml": src}, Options{})
	if len(res.Workloads) != 1 {
		t.Fatalf("workloads %v; notes %s", res.Workloads, notes(res))
	}
	var got []string
	for _, m := range res.Workloads[0].Mounts {
		got = append(got, fmt.Sprintf("%s %s %q sub %q at %s, volume at %s", m.Path, m.Volume.Kind, m.Volume.Name, m.SubPath, m.Loc, m.Volume.Loc))
	}
	want := []string{
		`/checkpoints nfs "ckpt" sub "cluster-a" at repo/v/compose.yaml:6, volume at repo/v/compose.yaml:16`,
		`/scratch empty "" sub "" at repo/v/compose.yaml:11, volume at repo/v/compose.yaml:11`,
		`/state named "state" sub "" at repo/v/compose.yaml:12, volume at repo/v/compose.yaml:19`,
		`/run empty "" sub "" at repo/v/compose.yaml:13, volume at repo/v/compose.yaml:13`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mounts (-want +got):\n%s", diff)
	}
}
