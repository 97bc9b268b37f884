package deploy

import (
	"bytes"
	"path"
	"strings"
)

// Source kinds: which reader takes a deployment file.
const (
	KindCompose    = "compose"
	KindKube       = "kubernetes"
	KindHelm       = "helm"      // a chart's Chart.yaml: the chart is rendered
	KindKustomize  = "kustomize" // a kustomization.yaml: the overlay is rendered
	KindDockerfile = "dockerfile"
	KindShell      = "shell"
	KindTemplate   = "template" // flink-conf.yaml.j2 and alike: a configuration file as a template
	KindVersions   = "versions" // Ansible group_vars, role defaults/vars, Chef attributes
)

// KindByName tells a deployment file's kind from its path alone ("" when
// the name does not tell: a YAML file may still be a Kubernetes manifest,
// KindByContent).
func KindByName(p string) string {
	base := path.Base(strings.ReplaceAll(p, `\`, "/"))
	lower := strings.ToLower(base)
	switch {
	case isBackup(lower):
		return ""
	case lower == "docker-compose.yml" || lower == "docker-compose.yaml" || lower == "compose.yml" || lower == "compose.yaml" ||
		(strings.HasPrefix(lower, "docker-compose.") || strings.HasPrefix(lower, "compose.")) && (strings.HasSuffix(lower, ".yml") || strings.HasSuffix(lower, ".yaml")):
		return KindCompose
	case lower == "chart.yaml":
		return KindHelm
	case lower == "kustomization.yaml" || lower == "kustomization.yml":
		return KindKustomize
	case lower == "dockerfile" || lower == "containerfile" || strings.HasPrefix(lower, "dockerfile") || strings.HasSuffix(lower, ".dockerfile"):
		return KindDockerfile
	case strings.HasSuffix(lower, ".sh") || strings.HasSuffix(lower, ".bash"):
		return KindShell
	case TemplateTarget(base) != "":
		return KindTemplate
	}
	dir := path.Base(path.Dir(strings.ReplaceAll(p, `\`, "/")))
	switch {
	case dir == "group_vars" || dir == "host_vars" || path.Base(path.Dir(path.Dir(p))) == "group_vars":
		return KindVersions
	case (dir == "defaults" || dir == "vars") && (lower == "main.yml" || lower == "main.yaml"):
		return KindVersions
	case dir == "attributes" && strings.HasSuffix(lower, ".rb"):
		return KindVersions
	}
	return ""
}

// KindByContent tells a YAML file no name tells: a Kubernetes manifest
// (a document with apiVersion and kind at its top level).
func KindByContent(src []byte) string {
	if hasTopKey(src, "apiVersion") && hasTopKey(src, "kind") {
		return KindKube
	}
	return ""
}

// hasTopKey reports whether some line of src starts with key and a
// colon (a top-level key of a YAML document).
func hasTopKey(src []byte, key string) bool {
	k := []byte(key + ":")
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		if bytes.HasPrefix(line, k) {
			return true
		}
	}
	return false
}

// isBackup reports an editor's or a merge tool's copy of a file: never a
// deployment file.
func isBackup(lower string) bool {
	return strings.HasSuffix(lower, ".bak") || strings.HasSuffix(lower, ".orig") || strings.HasSuffix(lower, "~") ||
		strings.HasSuffix(lower, ".swp") || strings.HasPrefix(lower, ".#") || strings.HasSuffix(lower, ".rej")
}

// templateSuffixes are the extensions of configuration-management
// templates: Jinja (Ansible), ERB (Chef, Puppet), Go templates and plain
// .template files.
var templateSuffixes = []string{".j2", ".jinja", ".jinja2", ".erb", ".tpl", ".tmpl", ".template"}

// TemplateTarget is the configuration file a template renders to
// (flink-conf.yaml.j2 → flink-conf.yaml), "" when name is none.
func TemplateTarget(name string) string {
	lower := strings.ToLower(name)
	for _, s := range templateSuffixes {
		if t, ok := strings.CutSuffix(lower, s); ok {
			switch t {
			case "flink-conf.yaml", "config.yaml", "core-site.xml", "hdfs-site.xml":
				return t
			}
		}
	}
	return ""
}
