// Package deploy reads how a repository deploys Flink: the Flink
// processes (JobManagers, TaskManagers, their count), the container or host
// file system each sees, and so which Flink configuration and which
// Hadoop files each really reads, which image or distribution each runs
// and what is mounted at its checkpoint, savepoint and HA paths. Every
// fact keeps the file and line it came from (Loc), so a finding can name
// the chain: "dfs.blocksize 128m from hadoop/conf/hdfs-site.xml:12, which
// the jobmanager and taskmanager services mount at /etc/hadoop/conf
// (docker-compose.yml:31) and read through HADOOP_CONF_DIR
// (docker-compose.yml:27)".
//
// Sources (docker-compose, Kubernetes manifests, Helm charts and
// Kustomize overlays rendered, Dockerfiles, shell scripts, configuration
// management templates) each describe what they declare in the same
// vocabulary: Workloads (a container image run as one or more processes,
// with its environment, mounts and image build), ConfigMaps, and Texts
// (configuration files written inside another file: a ConfigMap's data, a
// compose FLINK_PROPERTIES block, a shell heredoc). Resolve then joins
// them: what each workload's processes read at the paths Flink and Hadoop
// look at, per the upstream start scripts and HadoopUtils
// (docs/deployment.md).
package deploy

import "fmt"

// Loc is where a fact was read: a file (display path) and a 1-based line.
type Loc struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

func (l Loc) String() string {
	if l.Line <= 0 {
		return l.File
	}
	return fmt.Sprintf("%s:%d", l.File, l.Line)
}

// Workload is one kind of Flink (or Hadoop) process a source declares: a
// docker-compose service, a Kubernetes Deployment, StatefulSet, Job or
// FlinkDeployment component, a host install started by a script.
type Workload struct {
	// Name is the service or object name ("jobmanager",
	// "Deployment/flink-taskmanager").
	Name string `json:"name"`
	// Source is the kind of source: "compose", "kubernetes", "helm",
	// "kustomize", "shell".
	Source string `json:"source"`
	Loc    Loc    `json:"loc"`
	// Role is what the processes run, from the command, arguments or the
	// object's labels: RoleJobManager, RoleTaskManager, RoleSession (both
	// in one process: a standalone session cluster's start-cluster.sh, or
	// Flink's local mode), RoleStandaloneJob (a JobManager running one
	// application), RoleHadoop (a NameNode or DataNode), "" when not told.
	Role    string `json:"role"`
	RoleLoc Loc    `json:"role_loc"`
	// Replicas is how many processes run (deploy.replicas, scale,
	// spec.replicas); 0 when not declared (one).
	Replicas    int `json:"replicas,omitempty"`
	ReplicasLoc Loc `json:"replicas_loc"`
	// Image is the container image, "" for a host install; Build is the
	// image built from a Dockerfile of the repository (nil when pulled).
	Image    string `json:"image,omitempty"`
	ImageLoc Loc    `json:"image_loc"`
	Build    *Build `json:"build,omitempty"`
	// Env is the container's environment as declared (compose
	// environment/env_file, a pod's env), after the source's own
	// interpolation; the image's ENV is Build.Env.
	Env []EnvVar `json:"env,omitempty"`
	// Mounts are the volumes mounted into the container.
	Mounts []Mount `json:"mounts,omitempty"`
	// Group names the workloads of one Flink cluster (a compose project, a
	// Kubernetes namespace and app label, a Helm release); "" when alone.
	Group string `json:"group,omitempty"`
}

// Roles of a workload.
const (
	RoleJobManager    = "jobmanager"
	RoleTaskManager   = "taskmanager"
	RoleSession       = "session"
	RoleStandaloneJob = "standalone-job"
	RoleHadoop        = "hadoop"
)

// EnvVar is one environment variable of a container.
type EnvVar struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	Loc   Loc    `json:"loc"`
	// Text is set when the value is configuration text a start script
	// turns into a file (FLINK_PROPERTIES of the official Flink image),
	// read with positions in the declaring file.
	Text *Text `json:"-"`
	// FromSecret: the value comes from a Secret or another object the
	// repository does not hold; Value is then empty and unknown.
	Unknown string `json:"unknown,omitempty"`
}

// Mount is one volume mounted into a container at Path.
type Mount struct {
	Path     string `json:"path"`
	SubPath  string `json:"sub_path,omitempty"`
	ReadOnly bool   `json:"read_only,omitempty"`
	Loc      Loc    `json:"loc"`
	Volume   Volume `json:"volume"`
}

// Volume is what a mount shows.
type Volume struct {
	// Kind is VolumeRepo (a directory or file of the repository: a compose
	// bind mount), VolumeConfigMap, VolumeNamed (a compose named volume:
	// shared by every container of the project on one Docker host),
	// VolumeClaim (a PersistentVolumeClaim), VolumeEmpty (emptyDir, a
	// container's own directory), VolumeHost (a host path outside the
	// repository), VolumeNFS and VolumeOther.
	Kind string `json:"kind"`
	// Path is the repository path (display, slash-separated) of a
	// VolumeRepo; Name the volume's, ConfigMap's or claim's name.
	Path string `json:"path,omitempty"`
	Name string `json:"name,omitempty"`
	// Items are a ConfigMap's keys projected to file names (key → path
	// below the mount); nil projects every key under its own name.
	Items map[string]string `json:"items,omitempty"`
	// AccessModes of a claim (ReadWriteMany is shared across nodes).
	AccessModes []string `json:"access_modes,omitempty"`
	Loc         Loc      `json:"loc"`
}

// Volume kinds.
const (
	VolumeRepo      = "repo"
	VolumeConfigMap = "configmap"
	VolumeNamed     = "named"
	VolumeClaim     = "claim"
	VolumeEmpty     = "empty"
	VolumeHost      = "host"
	VolumeNFS       = "nfs"
	VolumeOther     = "other"
)

// Build is an image built from a Dockerfile of the repository.
type Build struct {
	Dockerfile string `json:"dockerfile"` // display path
	Loc        Loc    `json:"loc"`        // where the build is declared (compose build:, a script's docker build)
	// From is the base image of the last stage, with its Loc; Stages are
	// the FROM chain, base first (a stage built FROM another stage of the
	// same file is resolved through it).
	From    string `json:"from"`
	FromLoc Loc    `json:"from_loc"`
	// Copies are COPY and ADD instructions of the last stage (and of the
	// stages it copies from) that put repository files into the image.
	Copies []Copy `json:"copies,omitempty"`
	// Env are the stage's ENV instructions.
	Env []EnvVar `json:"env,omitempty"`
	// Versions are distribution archives the Dockerfile fetches or
	// unpacks (ADD/RUN of flink-X.Y.Z-bin-*.tgz, hadoop-X.Y.Z.tar.gz) and
	// Hadoop jars it puts on Flink's classpath (flink-shaded-hadoop).
	Versions []Version `json:"versions,omitempty"`
	// Jars are files it puts into Flink's lib or plugins directories.
	Jars []Copy `json:"jars,omitempty"`
}

// Copy is a repository file or directory put at Dest in an image.
type Copy struct {
	Src  string `json:"src"` // repository display path
	Dest string `json:"dest"`
	Loc  Loc    `json:"loc"`
}

// Version is a Flink or Hadoop version a deployment file states.
type Version struct {
	Product string `json:"product"` // "flink" or "hadoop"
	Version string `json:"version"`
	What    string `json:"what"` // "ADD flink-1.17.0-bin-scala_2.12.tgz", "flink_version in group_vars/all.yml"
	Loc     Loc    `json:"loc"`
}

// ConfigMap is a Kubernetes ConfigMap of the repository.
type ConfigMap struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
	Loc       Loc    `json:"loc"`
	// Data are its keys, each file text with positions in the manifest.
	Data map[string]*Text `json:"-"`
}

// Text is a configuration file written inside another file: its content
// and, where the content is a YAML literal block scalar (or a heredoc),
// where each of its lines lies in the containing file, so that a finding
// points at the line inside the block and `fix` edits it there.
type Text struct {
	// Name is the file name the text becomes (flink-conf.yaml,
	// core-site.xml, ...), Container the display path of the file holding
	// it, Loc where it starts.
	Name      string `json:"name"`
	Container string `json:"container"`
	Loc       Loc    `json:"loc"`
	// Src is the text as the program reads it.
	Src []byte `json:"-"`
	// Exact is set when every byte of Src lies at a known offset of the
	// container: Start and End delimit the block in the container's bytes
	// and Indent is the indentation its lines carry there; findings then
	// keep their lines and columns and fix edits inside the block.
	// Otherwise (a quoted scalar with escapes, a list entry
	// "FLINK_PROPERTIES=..."), findings point at Loc and fix edits nothing
	// in it.
	Exact      bool   `json:"exact"`
	Start, End int    `json:"-"`
	Indent     string `json:"-"`
}
