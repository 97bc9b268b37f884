package assemble

import (
	"github.com/ckptlint/ckptlint/internal/discover"
	"github.com/ckptlint/ckptlint/internal/format/hadoopxml"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/template"
)

// substitution expands the ${var} references of the set's Hadoop client
// files over the configuration Flink's HDFS client merges from them
// (model.ClientRaw), as Hadoop does when a value is read
// (Configuration.get: substituteVars over getProps(), Hadoop 3.4.1
// L1260-1270): ${hadoop.tmp.dir} in hdfs-site.xml reads core-site.xml's
// key. Each file was parsed on its own, expanding against its own keys; a
// file whose values change here is replaced by a copy with them, whose
// placeholders are marked again. A cluster hdfs-site.xml that
// is not a client file keeps its own reading: the NameNode's other files
// are not known.
func substitution(t *discover.Tree, s *model.Set) {
	lookup := model.ClientRaw(s)
	if lookup == nil {
		return
	}
	for i := range s.Client {
		f := s.Client[i].File
		if f == nil || template.Skipped(f) {
			continue
		}
		g := hadoopxml.Resubstitute(f, lookup)
		if g == f {
			continue
		}
		t.Remark(g)
		s.Client[i].File = g
		if s.ClusterHDFS == f {
			s.ClusterHDFS = g
		}
	}
}
