package scan

import (
	"path"
	"strings"

	"github.com/ckptlint/ckptlint/internal/deploy"
	"github.com/ckptlint/ckptlint/internal/deploy/cm"
	"github.com/ckptlint/ckptlint/internal/deploy/compose"
	"github.com/ckptlint/ckptlint/internal/deploy/dockerfile"
)

// KindOf tells a deployment file's kind (deploy.Kind*) from its path
// alone, by the test of the source that reads it; "" when the name does
// not tell (a YAML file may still be a Kubernetes manifest:
// deploy.KindByContent).
func KindOf(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	base := path.Base(p)
	lower := strings.ToLower(base)
	if deploy.IsBackup(lower) {
		return ""
	}
	switch {
	case base == HelmStdin:
		return deploy.KindHelmOutput
	case compose.IsComposeFile(base):
		return deploy.KindCompose
	case lower == "chart.yaml":
		return deploy.KindHelm
	case lower == "kustomization.yaml" || lower == "kustomization.yml":
		return deploy.KindKustomize
	case dockerfile.IsDockerfile(base):
		return deploy.KindDockerfile
	case strings.HasSuffix(lower, ".sh") || strings.HasSuffix(lower, ".bash"):
		return deploy.KindShell
	case cm.KindOf(p) != "":
		return deploy.KindVersions
	}
	if _, ok := cm.TemplateTarget(base); ok {
		return deploy.KindTemplate
	}
	return ""
}

// HelmStdin is the name `ckptlint lint -` gives standard input that holds
// the output of `helm template`: the manifests of a chart rendered by the
// user's own Helm, with the user's values (scanner.helmOutput).
const HelmStdin = "-"

// TemplateTarget is the configuration file a configuration-management
// template renders to (flink-conf.yaml.j2 → flink-conf.yaml), "" when the
// name is no such template (cm.TemplateTarget).
func TemplateTarget(name string) string {
	t, _ := cm.TemplateTarget(name)
	return t.Target
}
