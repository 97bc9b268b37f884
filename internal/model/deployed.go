package model

import "github.com/open-policy-agent/opa/v1/ast"

// Deployed is what the repository's deployment files say about the
// processes that read a set (internal/deploy): docs/input.md "deployed".
type Deployed struct {
	Name string
	// Subject names the processes in a sentence ("the jobmanager and
	// taskmanager services").
	Subject   string
	Processes []Process
	// Peers are every Flink process of the cluster, those reading another
	// configuration included (a compose project's jobmanager and
	// taskmanager services with FLINK_PROPERTIES of their own).
	Peers    []Process
	Image    string
	ImageLoc *Loc
	// FlinkChain, HadoopChain: how the Flink configuration and the Hadoop
	// directory reach the processes, as relative clauses; HadoopDir the
	// repository directory; HadoopMissing why no Hadoop file of the
	// repository reaches them.
	FlinkChain, HadoopChain, HadoopDir, HadoopMissing string
	Classpath                                         Classpath
}

// Process is one workload of a deployment: a compose service, a
// Kubernetes workload, a host install.
type Process struct {
	Name, Source, Role string
	Replicas           int
	Image              string
	Loc                *Loc
	Mounts             []ProcessMount
}

// ProcessMount is a volume a process mounts at Path: Kind is the
// internal/deploy volume kind, Volume names it in a sentence ("named
// volume flink-data", "./checkpoints of the repository"), Sharing is
// SharingShared when the other processes that mount the same Volume see
// the same files, SharingLocal when each process (or node) has its own,
// SharingUnknown when the repository does not tell (a claim defined
// elsewhere); Why says which.
type ProcessMount struct {
	Path, Kind, Name, Source string
	Volume, Sharing, Why     string
	Loc                      *Loc
}

// Sharing of a ProcessMount.
const (
	SharingShared  = "shared"
	SharingLocal   = "local"
	SharingUnknown = "unknown"
)

// Classpath says whether Hadoop's file system is on the processes'
// classpath (Known false: nothing tells).
type Classpath struct {
	Known, OnClasspath bool
	Why                string
	Loc                *Loc
}

// toInput is the "deployed" object of the input document.
func (d *Deployed) toInput() ast.Value {
	str := func(s string) *ast.Term { return ast.StringTerm(s) }
	loc := func(l *Loc) *ast.Term {
		if l == nil {
			return ast.NullTerm()
		}
		return ast.NewTerm(l.toInput())
	}
	return d.object(str, loc)
}

func (d *Deployed) object(str func(string) *ast.Term, loc func(*Loc) *ast.Term) ast.Value {
	procs := func(ps []Process) *ast.Term {
		var out []*ast.Term
		for _, p := range ps {
			out = append(out, p.toInput(str, loc))
		}
		return ast.ArrayTerm(out...)
	}
	cp := d.Classpath
	return ast.NewObject(
		ast.Item(str("name"), str(d.Name)),
		ast.Item(str("subject"), str(d.Subject)),
		ast.Item(str("processes"), procs(d.Processes)),
		ast.Item(str("peers"), procs(d.Peers)),
		ast.Item(str("image"), str(d.Image)),
		ast.Item(str("image_loc"), loc(d.ImageLoc)),
		ast.Item(str("flink_conf_via"), str(d.FlinkChain)),
		ast.Item(str("hadoop_conf_dir"), str(d.HadoopDir)),
		ast.Item(str("hadoop_conf_via"), str(d.HadoopChain)),
		ast.Item(str("hadoop_missing"), str(d.HadoopMissing)),
		ast.Item(str("hadoop_on_classpath"), ast.ObjectTerm(
			ast.Item(str("known"), ast.BooleanTerm(cp.Known)), ast.Item(str("value"), ast.BooleanTerm(cp.OnClasspath)),
			ast.Item(str("why"), str(cp.Why)), ast.Item(str("loc"), loc(cp.Loc)))),
	)
}

// toInput is one process of "deployed".
func (p Process) toInput(str func(string) *ast.Term, loc func(*Loc) *ast.Term) *ast.Term {
	var mounts []*ast.Term
	for _, m := range p.Mounts {
		mounts = append(mounts, ast.ObjectTerm(
			ast.Item(str("path"), str(m.Path)), ast.Item(str("kind"), str(m.Kind)), ast.Item(str("name"), str(m.Name)),
			ast.Item(str("source"), str(m.Source)), ast.Item(str("volume"), str(m.Volume)), ast.Item(str("sharing"), str(m.Sharing)),
			ast.Item(str("why"), str(m.Why)), ast.Item(str("loc"), loc(m.Loc))))
	}
	return ast.ObjectTerm(
		ast.Item(str("name"), str(p.Name)), ast.Item(str("source"), str(p.Source)), ast.Item(str("role"), str(p.Role)),
		ast.Item(str("replicas"), ast.IntNumberTerm(p.Replicas)), ast.Item(str("image"), str(p.Image)), ast.Item(str("loc"), loc(p.Loc)),
		ast.Item(str("mounts"), ast.ArrayTerm(mounts...)))
}
