package lint

import (
	"fmt"
	"strings"

	"github.com/ckptlint/ckptlint/lint/cfgfile"
	"github.com/ckptlint/ckptlint/lint/config"
	"github.com/ckptlint/ckptlint/lint/format/flinkyaml"
	"github.com/ckptlint/ckptlint/lint/model"
)

// assumedFlink is the version assumed for a set with no declared version
// and no evidence: the last release that reads only flink-conf.yaml. Rules
// that depend on the version treat an assumed one as a guess.
var assumedFlink = model.V(1, 18)

// versions resolves the Flink and Hadoop versions of a set: --flink-version,
// then .ckptlint.hcl (deployment block, then top level), then the
// manifest's spec.flinkVersion, then evidence in the files.
func (a *assembler) versions(s *model.Set, dep *config.Deployment, fd *flinkyaml.Deployment) {
	s.FlinkVersion = a.flinkVersion(s.Flink, dep, fd)
	cl := a.defaultCluster()
	if dep != nil && dep.Cluster != "" {
		cl = a.cfg.ClusterByName(dep.Cluster)
	}
	switch {
	case a.vers.Hadoop != "":
		s.HadoopVersion = resolved(a.vers.Hadoop, "flag", "--hadoop-version")
	case cl != nil && cl.HadoopVersion != "":
		s.HadoopVersion = resolved(cl.HadoopVersion, "config", fmt.Sprintf("cluster %q in .ckptlint.hcl", cl.Name))
	case a.cfg != nil && a.cfg.HadoopVersion != "":
		s.HadoopVersion = resolved(a.cfg.HadoopVersion, "config", "hadoop_version in .ckptlint.hcl")
	default:
		s.HadoopVersion = model.Resolved{Source: "unknown", Why: "declare hadoop_version in .ckptlint.hcl"}
	}
}

func resolved(s, source, why string) model.Resolved {
	v, err := model.ParseVersion(s)
	if err != nil {
		return model.Resolved{Source: "unknown", Why: err.Error()}
	}
	r := model.Resolved{Version: v, Source: source, Why: why}
	if !strings.HasPrefix(s, "v") {
		r.Raw = s // keeps "3.2.0" apart from "3.2"
	}
	return r
}

func (a *assembler) flinkVersion(f *cfgfile.File, dep *config.Deployment, fd *flinkyaml.Deployment) model.Resolved {
	switch {
	case a.vers.Flink != "":
		return resolved(a.vers.Flink, "flag", "--flink-version")
	case dep != nil && dep.FlinkVersion != "":
		return resolved(dep.FlinkVersion, "deployment", fmt.Sprintf("deployment %q in .ckptlint.hcl", dep.Name))
	case a.cfg != nil && a.cfg.FlinkVersion != "":
		return resolved(a.cfg.FlinkVersion, "config", "flink_version in .ckptlint.hcl")
	case fd != nil && fd.FlinkVersion != "":
		if r := resolved(fd.FlinkVersion, "manifest", "spec.flinkVersion "+fd.FlinkVersion); r.Source == "manifest" {
			return r
		}
	}
	if v, why := model.Evidence(f); !v.IsZero() {
		return model.Resolved{Version: v, Source: "evidence", Why: why + " (a lower bound; declare flink_version in .ckptlint.hcl)"}
	}
	return model.Resolved{Version: assumedFlink, Source: "assumed",
		Why: fmt.Sprintf("no version declared and no evidence in the files; assumed %s (declare flink_version in .ckptlint.hcl)", assumedFlink)}
}
