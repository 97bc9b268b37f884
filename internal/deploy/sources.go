package deploy

import (
	"bytes"
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
	KindTemplate   = "template"    // flink-conf.yaml.j2 and alike: a configuration file as a template
	KindHelmOutput = "helm-output" // `helm template` output on standard input (scan.HelmStdin)
	KindVersions   = "versions"    // Ansible group_vars, role defaults/vars, Chef attributes
)

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

// IsBackup reports whether base, a file name, is an editor's or a merge
// tool's copy of a file (*.bak, *.orig, *.rej, *~, vim's *.swp and *.swo,
// Emacs's .#*), in any case: never a deployment file.
func IsBackup(base string) bool {
	lower := strings.ToLower(base)
	for _, s := range []string{".bak", ".orig", ".rej", "~", ".swp", ".swo"} {
		if strings.HasSuffix(lower, s) {
			return true
		}
	}
	return strings.HasPrefix(lower, ".#")
}
