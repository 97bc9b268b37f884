package assemble

import (
	"path/filepath"
	"slices"

	"github.com/ckptlint/ckptlint/internal/discover"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Plan is one config set as assembly hands it on: Set with its Flink
// files parsed, its manifest, versions, cluster and deployment facts, and
// the Hadoop files it reads, parsed by Parse.
type Plan struct {
	Set *model.Set
	// Flink are the Flink files read for Set.Flink and Set.FlinkIgnored
	// (a FlinkDeployment's: its manifest).
	Flink []*discover.Found
	// Hadoop are the Hadoop client files in Flink's load order (lowest
	// priority first), Set.Client once parsed.
	Hadoop []Ref
	// ClusterHDFS is the cluster's own hdfs-site.xml, Set.ClusterHDFS
	// once parsed; it may be one of Hadoop.
	ClusterHDFS *discover.Found
	// ClusterHDFSChain says how the deployment brings ClusterHDFS to the
	// HDFS daemons (model.Set ClusterHDFSChain).
	ClusterHDFSChain string
	// IgnoreCDATA: the set's declared Hadoop release drops CDATA sections
	// (hadoopxml.CDATAIgnored), so its Hadoop files are read without them,
	// and every value a rule sees is the one that release's
	// Configuration.get() returns.
	IgnoreCDATA bool
	// Root is the directory, as the run names it, whose walk finds the
	// set: that of its first file (the result cache walks it again after
	// an edit).
	Root string
}

// Ref is one Hadoop client file of a plan.
type Ref struct {
	File     *discover.Found
	Via, Dir string
	// Chain is model.Resource's Chain.
	Chain string
}

// Parse parses the plan's Hadoop files (discover.Tree Parse: nothing is
// read), expands their ${var} references over the configuration they make
// together (substitution), and returns the complete set, which owns every
// file it holds. A file the plan names twice (a client hdfs-site.xml that
// is also the cluster's) is parsed once.
func (p *Plan) Parse(t *discover.Tree) *model.Set {
	s := p.Set
	done := map[*discover.Found]*parsed.File{}
	parse := func(f *discover.Found) *parsed.File {
		if g, ok := done[f]; ok {
			return g
		}
		g := t.Parse(f, p.IgnoreCDATA)
		done[f] = g
		return g
	}
	s.Client = make([]model.Resource, 0, len(p.Hadoop))
	for _, r := range p.Hadoop {
		s.Client = append(s.Client, model.Resource{File: parse(r.File), Via: r.Via, Dir: r.Dir, Chain: r.Chain})
	}
	if p.ClusterHDFS != nil {
		s.ClusterHDFS, s.ClusterHDFSChain = parse(p.ClusterHDFS), p.ClusterHDFSChain
	}
	substitution(t, s)
	return s
}

// Files are the files the plan reads, Flink first: the Flink files (or
// the manifest) and the Hadoop files, each once.
func (p *Plan) Files() []*discover.Found {
	out := slices.Clone(p.Flink)
	seen := map[*discover.Found]bool{}
	for _, r := range p.Hadoop {
		if !seen[r.File] {
			seen[r.File] = true
			out = append(out, r.File)
		}
	}
	if p.ClusterHDFS != nil && !seen[p.ClusterHDFS] {
		out = append(out, p.ClusterHDFS)
	}
	return out
}

// root is the directory of the plan's first file.
func (p *Plan) root() string {
	for _, f := range p.Set.Files() {
		if f != nil {
			return filepath.Dir(filepath.FromSlash(f.Path))
		}
	}
	if fs := p.Files(); len(fs) > 0 {
		return filepath.Dir(filepath.FromSlash(fs[0].Disp))
	}
	return ""
}
