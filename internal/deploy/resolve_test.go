package deploy

import (
	"strings"
	"testing"
)

// composeModel is what a compose source makes of Flink's documented
// session cluster with a Hadoop configuration directory mounted in.
func composeModel() *Model {
	props := &Text{Name: "flink-conf.yaml", Container: "docker-compose.yml", Loc: Loc{"docker-compose.yml", 8}, Src: []byte("state.checkpoints.dir: hdfs:///ckpt\n")}
	svc := func(name, role string, line int) *Workload {
		return &Workload{Name: name, Source: "compose", Group: "docker-compose.yml", Role: role, Loc: Loc{"docker-compose.yml", line},
			Image: "flink:1.17.2", ImageLoc: Loc{"docker-compose.yml", line + 1},
			Env: []EnvVar{
				{Name: "HADOOP_CONF_DIR", Value: "/etc/hadoop/conf", Loc: Loc{"docker-compose.yml", line + 3}},
				{Name: "FLINK_PROPERTIES", Loc: Loc{"docker-compose.yml", line + 4}, Text: props},
			},
			Mounts: []Mount{{Path: "/etc/hadoop/conf", Loc: Loc{"docker-compose.yml", line + 8}, Volume: Volume{Kind: VolumeRepo, Path: "hadoop/conf"}}},
		}
	}
	return &Model{Workloads: []*Workload{svc("jobmanager", RoleJobManager, 3), svc("taskmanager", RoleTaskManager, 14)}}
}

func TestResolveCompose(t *testing.T) {
	files := map[string]bool{"hadoop/conf/core-site.xml": true, "hadoop/conf/hdfs-site.xml": true}
	cs := Resolve(composeModel(), func(p string) bool { return files[p] })
	if len(cs) != 1 {
		t.Fatalf("%d clusters, want one for both services: %+v", len(cs), cs)
	}
	c := cs[0]
	if len(c.Workloads) != 2 || c.Name != "docker-compose.yml" {
		t.Errorf("cluster %q of %d workloads", c.Name, len(c.Workloads))
	}
	if c.Flink != nil || c.FlinkProperties == nil {
		t.Errorf("Flink %+v, properties %v: want FLINK_PROPERTIES over the image's configuration", c.Flink, c.FlinkProperties)
	}
	if c.Hadoop == nil || c.Hadoop.Dir != "hadoop/conf" {
		t.Fatalf("Hadoop dir %+v", c.Hadoop)
	}
	if got := c.Hadoop.Chain.String(); got != "mount at /etc/hadoop/conf (docker-compose.yml:11), read through HADOOP_CONF_DIR (docker-compose.yml:6)" {
		t.Errorf("chain %q", got)
	}
	if got := c.Hadoop.Chain.Clause(Subject(c.Workloads), true); got != "which the jobmanager and taskmanager services mount at /etc/hadoop/conf (docker-compose.yml:11) and read through HADOOP_CONF_DIR (docker-compose.yml:6)" {
		t.Errorf("clause %q", got)
	}
	if !c.Classpath.Known || c.Classpath.OnClasspath || !strings.Contains(c.Classpath.Why, "ships no Hadoop") {
		t.Errorf("classpath %+v", c.Classpath)
	}
}

func TestResolveMissingHadoopDir(t *testing.T) {
	m := composeModel()
	for _, w := range m.Workloads {
		w.Mounts = nil
	}
	c := Resolve(m, func(string) bool { return false })[0]
	if c.Hadoop.Dir != "" || !strings.Contains(c.Hadoop.Missing, "HADOOP_CONF_DIR /etc/hadoop/conf (docker-compose.yml:6)") {
		t.Errorf("missing dir %+v", c.Hadoop)
	}
}

func TestResolveConfigMap(t *testing.T) {
	flink := &Text{Name: "config.yaml", Container: "k8s/cm.yaml", Loc: Loc{"k8s/cm.yaml", 6}}
	core := &Text{Name: "core-site.xml", Container: "k8s/cm.yaml", Loc: Loc{"k8s/cm.yaml", 12}}
	m := &Model{
		ConfigMaps: []*ConfigMap{
			{Name: "flink-config", Data: map[string]*Text{"config.yaml": flink}},
			{Name: "hadoop-config", Data: map[string]*Text{"core-site.xml": core}},
		},
		Workloads: []*Workload{{Name: "Deployment/flink-jobmanager", Source: "kubernetes", Group: "flink", Role: RoleJobManager, Image: "flink:1.19",
			Env: []EnvVar{{Name: "HADOOP_CONF_DIR", Value: "/opt/hadoop/conf", Loc: Loc{"k8s/jm.yaml", 30}}},
			Mounts: []Mount{
				{Path: "/opt/flink/conf", Loc: Loc{"k8s/jm.yaml", 20}, Volume: Volume{Kind: VolumeConfigMap, Name: "flink-config"}},
				{Path: "/opt/hadoop/conf", Loc: Loc{"k8s/jm.yaml", 22}, Volume: Volume{Kind: VolumeConfigMap, Name: "hadoop-config"}},
			}}},
	}
	c := Resolve(m, func(string) bool { return false })[0]
	if c.Flink == nil || c.Flink.Text != flink {
		t.Fatalf("Flink %+v", c.Flink)
	}
	if c.Hadoop == nil || c.Hadoop.Texts["core-site.xml"] != core {
		t.Fatalf("Hadoop %+v", c.Hadoop)
	}
}

// TestMergeChains: the same steps of several workloads are one step with
// each place; a chain of other steps adds no place.
func TestMergeChains(t *testing.T) {
	jm := Chain{{What: "mount at /etc/hadoop/conf", Loc: Loc{"docker-compose.yml", 19}}, {What: "read through HADOOP_CONF_DIR", Loc: Loc{"docker-compose.yml", 4}}}
	tm := Chain{{What: "mount at /etc/hadoop/conf", Loc: Loc{"docker-compose.yml", 34}}, {What: "read through HADOOP_CONF_DIR", Loc: Loc{"docker-compose.yml", 4}}}
	other := Chain{{What: "copy into their image at /etc/hadoop/conf", Loc: Loc{"Dockerfile", 3}}, {What: "read through HADOOP_CONF_DIR", Loc: Loc{"Dockerfile", 4}}}
	got := mergeChains([]Chain{jm, tm, other}).Clause("the jobmanager, taskmanager and history services", true)
	want := "which the jobmanager, taskmanager and history services mount at /etc/hadoop/conf (docker-compose.yml:19, docker-compose.yml:34) and read through HADOOP_CONF_DIR (docker-compose.yml:4)"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if jm[0].Also != nil {
		t.Error("mergeChains changed its input")
	}
}

func TestIsBackup(t *testing.T) {
	for name, want := range map[string]bool{"Dockerfile.bak": true, "x.ORIG": true, "a.rej": true, "a~": true, ".a.swp": true,
		".a.swo": true, ".#a": true, "docker-compose.yml": false, "Dockerfile": false, "bak": false} {
		if IsBackup(name) != want {
			t.Errorf("IsBackup(%q) = %v, want %v", name, !want, want)
		}
	}
}
