package lint_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/lint"
)

// TestKubernetesVolumes lints testdata/k8s: a file:// checkpoint or HA
// directory under a PersistentVolumeClaim, NFS or CSI volume of the pod
// templates is shared storage (no local-disk finding); under an emptyDir,
// a hostPath or a volume only the JobManager has it stays local, and the
// finding names the volume. Both FlinkDeployments of a multi-document file
// are linted.
func TestKubernetesVolumes(t *testing.T) {
	eng := linttest.Engine(t)
	root, _ := filepath.Abs("../testdata/k8s")
	res := linttest.Lint(t, eng, root, lint.Options{})
	golden(t, filepath.Join(root, "..", "k8s.want.txt"), textOf(t, res.Findings))

	local := func(file, rule string) []finding.Finding {
		var out []finding.Finding
		for _, f := range res.Findings {
			if f.Range.File == file && f.RuleID == rule {
				out = append(out, f)
			}
		}
		return out
	}
	for _, file := range []string{"pvc.yaml", "nfs.yaml", "csi.yaml"} {
		for _, rule := range []string{"CKPT502", "CKPT508"} {
			for _, f := range local(file, rule) {
				t.Errorf("a shared volume reported as local disk: %s", f)
			}
		}
	}
	for file, volume := range map[string]string{"emptydir.yaml": "volume scratch (emptyDir)", "hostpath.yaml": "volume node-disk (hostPath, node path /mnt/flink)"} {
		for _, rule := range []string{"CKPT502", "CKPT508"} {
			fs := local(file, rule)
			if len(fs) != 1 || !strings.Contains(fs[0].Message+" "+fs[0].Detail, volume) {
				t.Errorf("%s %s: %v; want one finding naming %s", file, rule, fs, volume)
			}
		}
	}
	if fs := local("jobmanager-only.yaml", "CKPT502"); len(fs) != 1 ||
		!strings.Contains((fs[0].Message+" "+fs[0].Detail), "in the JobManager pods, volume data (persistentVolumeClaim, claim jm-data)") ||
		!strings.Contains((fs[0].Message+" "+fs[0].Detail), "in the TaskManager pods, volume data (emptyDir)") {
		t.Errorf("jobmanager-only.yaml CKPT502: %v; want one finding naming the claim of the JobManager and the emptyDir of the TaskManagers", fs)
	}
	if fs := local("jobmanager-only.yaml", "CKPT508"); len(fs) != 0 {
		t.Errorf("HA storage on the JobManager's claim reported: %v", fs)
	}
	sets := map[string]bool{}
	for _, f := range res.Findings {
		if f.Range.File == "two-deployments.yaml" {
			sets[f.ConfigSet] = true
		}
	}
	if !sets["two-deployments.yaml#orders"] || !sets["two-deployments.yaml#payments"] {
		t.Errorf("two-deployments.yaml: findings from config sets %v, want both FlinkDeployments", sets)
	}
}
