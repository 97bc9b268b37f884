package assemble

import (
	"github.com/ckptlint/ckptlint/lint/format/hadoopxml"
	"github.com/ckptlint/ckptlint/lint/model"
	"github.com/ckptlint/ckptlint/lint/template"
)

// substitution expands the ${var} references of the set's Hadoop client
// files over the configuration Flink's HDFS client merges from them
// (model.ClientRaw), as Hadoop does when a value is read
// (Configuration.get: substituteVars over getProps(), Hadoop 3.4.1
// L1260-1270): ${hadoop.tmp.dir} in hdfs-site.xml reads core-site.xml's
// key. Discovery parsed each file on its own, expanding against its own
// keys; a file whose values change here is replaced, for this set only, by
// a copy with them (a file several sets read may expand differently in
// each), whose placeholders are marked again. A cluster hdfs-site.xml that
// is not a client file keeps its own reading: the NameNode's other files
// are not known.
func (a *assembler) substitution(s *model.Set) {
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
		a.d.Remark(g)
		s.Client[i].File = g
		if s.ClusterHDFS == f {
			s.ClusterHDFS = g
		}
	}
}
