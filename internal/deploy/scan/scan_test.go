package scan

import (
	"errors"
	"testing"

	"github.com/ckptlint/ckptlint/internal/deploy"
	"github.com/ckptlint/ckptlint/internal/deploy/kube"
)

func TestKindOf(t *testing.T) {
	for p, want := range map[string]string{
		"docker-compose.yml":                       deploy.KindCompose,
		"deploy/compose.prod.yaml":                 deploy.KindCompose,
		"charts/flink/Chart.yaml":                  deploy.KindHelm,
		"k8s/overlays/prod/kustomization.yaml":     deploy.KindKustomize,
		"docker/Dockerfile_env":                    deploy.KindDockerfile,
		"flink.Dockerfile":                         deploy.KindDockerfile,
		"internal/deploy/dockerfile/dockerfile.go": "", // a program about Dockerfiles
		"Dockerfile.bak":                           "",
		"bin/install-flink.sh":                     deploy.KindShell,
		"ansible/group_vars/all.yml":               deploy.KindVersions,
		"roles/flink/defaults/main.yml":            deploy.KindVersions,
		"cookbooks/flink/attributes/default.rb":    deploy.KindVersions,
		"roles/flink/templates/flink-conf.yaml.j2": deploy.KindTemplate,
		"roles/flink/templates/flink.service.j2":   "",
		"flink-conf.yaml":                          "",
		"docker-compose.yml~":                      "",
		"-":                                        deploy.KindHelmOutput,
	} {
		if got := KindOf(p); got != want {
			t.Errorf("KindOf(%q) = %q, want %q", p, got, want)
		}
	}
	if got := TemplateTarget("core-site.xml.erb"); got != "core-site.xml" {
		t.Errorf("TemplateTarget(core-site.xml.erb) = %q", got)
	}
}

// TestByDir: the same Deployments in two directories are two clusters;
// in one directory they keep their group.
func TestByDir(t *testing.T) {
	mk := func(p string) *kube.Manifest {
		return &kube.Manifest{Path: p, Workloads: []deploy.Workload{{Name: "Deployment/flink-taskmanager", Group: "default/flink"}}}
	}
	one := []*kube.Manifest{mk("k8s/jm.yaml"), mk("k8s/tm.yaml")}
	byDir(one)
	if g := one[0].Workloads[0].Group; g != "default/flink" {
		t.Errorf("one directory: group %q, want default/flink", g)
	}
	two := []*kube.Manifest{mk("k8s/staging/flink.yaml"), mk("k8s/prod/flink.yaml")}
	byDir(two)
	if a, b := two[0].Workloads[0].Group, two[1].Workloads[0].Group; a == b || a != "k8s/staging: default/flink" {
		t.Errorf("two directories: groups %q and %q, want one per directory", a, b)
	}
}

// repo is a repository of files in memory.
type repo map[string][]byte

func (r repo) Read(p string) ([]byte, error) {
	if b, ok := r[p]; ok {
		return b, nil
	}
	return nil, errors.New("no such file")
}
func (r repo) List(string, int) ([]string, bool) { return nil, false }
func (r repo) Inside(string) bool                { return true }

// TestComposeOnce: a compose file and its override are one project,
// however many of its files discovery hands over; a Dockerfile the
// project builds fills in its image, one no service builds gives its
// texts to the model.
func TestComposeOnce(t *testing.T) {
	r := repo{
		"docker-compose.yml":          []byte("services:\n  jobmanager:\n    build: .\n    command: jobmanager\n"),
		"docker-compose.override.yml": []byte("services:\n  jobmanager:\n    environment:\n      HADOOP_CONF_DIR: /etc/hadoop/conf\n"),
		"Dockerfile":                  []byte("FROM flink:1.18.1-scala_2.12\nENV HADOOP_CLASSPATH=/opt/hadoop/lib/*\n"),
		"other/Dockerfile":            []byte("FROM flink:1.17.2\nRUN echo 'state.checkpoints.dir: file:///x' >> /opt/flink/conf/flink-conf.yaml\n"),
	}
	var files []File
	for _, p := range []string{"docker-compose.yml", "docker-compose.override.yml", "Dockerfile", "other/Dockerfile"} {
		files = append(files, File{Disp: p, Kind: KindOf(p), Src: r[p]})
	}
	m := Model(files, r)
	if len(m.Workloads) != 1 {
		t.Fatalf("%d workloads, want the project's one: %+v (notes %q)", len(m.Workloads), m.Workloads, m.Notes)
	}
	w := m.Workloads[0]
	if w.Build == nil || w.Build.From != "flink:1.18.1-scala_2.12" {
		t.Errorf("build %+v, want the Dockerfile's FROM", w.Build)
	}
	if len(w.Env) == 0 || w.Env[0].Name != "HADOOP_CONF_DIR" {
		t.Errorf("env %+v, want the override's HADOOP_CONF_DIR", w.Env)
	}
	loose := 0
	for _, tx := range m.Texts {
		switch tx.Container {
		case "Dockerfile":
			t.Errorf("the built Dockerfile's texts are the workload's, not loose: %+v", tx)
		case "other/Dockerfile":
			loose++
		}
	}
	if loose != 1 {
		t.Errorf("%d texts of other/Dockerfile, want its one RUN echo (texts %+v)", loose, m.Texts)
	}
}

// TestHelmOutput: `helm template` output on standard input is at the
// templates its `# Source:` comments name when they are files of the
// repository, and at its own lines otherwise; a comment naming a path
// out of the repository (absolute, or climbing with ..) reads nothing.
func TestHelmOutput(t *testing.T) {
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  flink-conf.yaml: |\n    state.checkpoints.dir: hdfs:///nn:8020/c\n"
	stdin := "---\n# Source: flink/templates/cm.yaml\n" + cm +
		"---\n# Source: /etc/templates/passwd\n" + cm +
		"---\n# Source: flink/../../templates/x.yaml\n" + cm +
		"---\n# Source: ../flink/templates/cm.yaml\n" + cm
	r := repo{"templates/cm.yaml": []byte(cm), "-": []byte(stdin)}
	asked := []string{}
	read := countingRepo{r, &asked}
	m := Model([]File{{Disp: "-", Kind: KindOf("-"), Src: []byte(stdin)}}, read)
	var containers []string
	for _, c := range m.ConfigMaps {
		for _, tx := range c.Data {
			containers = append(containers, tx.Container)
		}
	}
	if len(containers) != 4 || containers[0] != "templates/cm.yaml" || containers[1] != "-" || containers[2] != "-" || containers[3] != "-" {
		t.Errorf("texts in %q, want templates/cm.yaml, then - three times", containers)
	}
	for _, p := range asked {
		if p != "flink/templates/cm.yaml" && p != "templates/cm.yaml" {
			t.Errorf("read %q", p)
		}
	}
}

// countingRepo records what is read.
type countingRepo struct {
	repo
	asked *[]string
}

func (c countingRepo) Read(p string) ([]byte, error) {
	*c.asked = append(*c.asked, p)
	return c.repo.Read(p)
}
