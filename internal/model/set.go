package model

import (
	"time"

	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Field is an optional scalar read from a FlinkDeployment manifest.
type Field struct {
	Value string
	Loc   *Loc
}

// Manifest carries the FlinkDeployment facts outside flinkConfiguration.
type Manifest struct {
	Name                string
	Namespace           string
	FlinkVersion        string
	JobParallelism      *Field
	TaskManagerReplicas *Field
	UpgradeMode         *Field
	Mode                string
	// Mounts are the volume mounts of the Flink main container per
	// component ("jobmanager", "taskmanager"), from spec.podTemplate and the
	// component's own podTemplate, each with the volume it mounts.
	Mounts map[string][]Mount
}

// Mount is one volume mount of a FlinkDeployment's Flink container.
type Mount struct {
	MountPath, SubPath string
	ReadOnly           bool
	Volume             string
	// VolumeType is the volume source (persistentVolumeClaim, nfs, csi,
	// emptyDir, hostPath, ...) and Detail what it names.
	VolumeType, Detail string
	// Class is what the volume means for files written under the mount:
	// "shared" (a network file system or claim every pod can mount),
	// "local" (emptyDir, hostPath, ephemeral: per pod or per node), "node"
	// (a block device attached to one node at a time), "config" (configMap,
	// secret, projected, downwardAPI), "missing" (no volume of that name) or
	// "unknown".
	Class string
	// AccessModes are those of a PersistentVolumeClaim declared in the same
	// file, when it is.
	AccessModes []string
	// Template is where the mount is declared (spec.podTemplate, ...).
	Template string
	Loc      *Loc
}

// Resource is one Hadoop XML file with the role it plays for Flink.
type Resource struct {
	File *parsed.File
	// Via says how Flink reaches it: "fs.hdfs.hadoopconf", "env.hadoop.conf.dir",
	// "deployment" (declared in .ckptlint.hcl), "same-dir" (beside the Flink
	// file, assumed to be HADOOP_CONF_DIR) or "cluster".
	Via string
	// Dir is the directory the file was found in.
	Dir string
	// Chain, for a file the repository's deployment files bring to the
	// Flink processes, says how, as a relative clause for messages
	// ("which the jobmanager and taskmanager services mount at
	// /etc/hadoop/conf (docker-compose.yml:31) and read through
	// HADOOP_CONF_DIR (docker-compose.yml:27)"); "" otherwise.
	Chain string
}

// Set is one config set: the unit of evaluation.
type Set struct {
	Name string // display name, e.g. the Flink file's directory or the deployment name
	// Flink is the Flink configuration file Flink reads; nil for a
	// Hadoop-only set.
	Flink *parsed.File
	// FlinkIgnored is a second Flink file in the same directory that this
	// Flink version does not read (Flink 1.20 GlobalConfiguration.java
	// L146-171; 2.0 reads only config.yaml, FLINK-33677).
	FlinkIgnored *parsed.File
	Manifest     *Manifest
	// Client lists the Hadoop client resources in Flink's load order
	// (lowest priority first): fs.hdfs.hadoopconf, then HADOOP_CONF_DIR.
	Client []Resource
	// ClusterHDFS is the cluster's own hdfs-site.xml (NameNode/DataNode side),
	// with how the deployment brings it to the HDFS daemons (ClusterHDFSChain,
	// as Resource.Chain).
	ClusterHDFS      *parsed.File
	ClusterHDFSChain string
	// HadoopConfRefs records conf-dir references that did not resolve to a
	// directory of the repository (key, value, loc, reason).
	HadoopConfRefs []ConfRef

	FlinkVersion  Resolved
	HadoopVersion Resolved
	Cluster       *config.Cluster
	Deployment    *config.Deployment

	// Facts says how old facts blocks are judged (docs/input.md "facts").
	Facts FactsClock

	// FlinkOverlay is configuration applied over Flink (the official
	// image's FLINK_PROPERTIES): its keys win (docs/deployment.md).
	FlinkOverlay *parsed.File
	// Deployed is what the repository's deployment files say about the
	// processes reading the set; nil when none does.
	Deployed *Deployed
}

// FactsClock is what staleness of the facts blocks of .ckptlint.hcl is
// measured against.
type FactsClock struct {
	// Now is the time of the run; zero leaves ages out of the input.
	Now time.Time
	// MaxAge is facts_max_age (config.DefaultFactsMaxAge when unset).
	MaxAge time.Duration
	// ConfigFile is .ckptlint.hcl as displayed in messages, "" when none.
	ConfigFile string
}

// ConfRef is a Flink option naming a Hadoop configuration directory.
type ConfRef struct {
	Key      string
	Value    string
	Loc      *Loc
	Resolved string // repo-relative directory, "" when unresolved
	Reason   string // why it did not resolve
}

// Files returns every file of the set, Flink first.
func (s *Set) Files() []*parsed.File {
	var out []*parsed.File
	if s.Flink != nil {
		out = append(out, s.Flink)
	}
	if s.FlinkIgnored != nil {
		out = append(out, s.FlinkIgnored)
	}
	if s.FlinkOverlay != nil {
		out = append(out, s.FlinkOverlay)
	}
	for _, r := range s.Client {
		out = append(out, r.File)
	}
	if s.ClusterHDFS != nil {
		out = append(out, s.ClusterHDFS)
	}
	return out
}
