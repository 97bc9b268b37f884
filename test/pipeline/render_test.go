package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A Helm chart is rendered by ckptlint-render, a second executable that
// ckptlint looks for beside its own executable, then on PATH
// (internal/deploy/render, locate). These tests run the binaries TestMain
// built as a user has them installed: side by side, ckptlint alone, and
// ckptlint alone with the renderer on PATH.

// renderChart is a chart whose ConfigMap, mounted as Flink's configuration
// directory, writes the NameNode after three slashes (CKPT513) through a
// value: only a rendering finds it.
var renderChart = map[string]string{
	"Chart.yaml":  "apiVersion: v2\nname: flink\nversion: 0.1.0\nappVersion: \"1.20.1\"\n",
	"values.yaml": "checkpoints: hdfs:///namenode:8020/flink/checkpoints\n",
	"templates/configmap.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-flink-config
data:
  flink-conf.yaml: |
    jobmanager.rpc.address: {{ .Release.Name }}-jobmanager
    execution.checkpointing.interval: 1 min
    execution.checkpointing.dir: {{ .Values.checkpoints }}
`,
	"templates/flink.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}-jobmanager
spec:
  replicas: 1
  template:
    spec:
      containers:
        - name: jobmanager
          image: flink:1.20.1-scala_2.12
          args: ["jobmanager"]
          volumeMounts:
            - name: flink-config
              mountPath: /opt/flink/conf
      volumes:
        - name: flink-config
          configMap:
            name: {{ .Release.Name }}-flink-config
`,
}

// The finding a rendering of renderChart gives, at the template's line of
// the data key that holds the file (the value comes from values.yaml).
const (
	renderedFinding = "templates/configmap.yaml:6:1: error: "
	renderedRule    = "[CKPT513 hdfs-namenode-in-path"
	// notInstalled is the note of a run without the renderer.
	notInstalled = "ckptlint: note: helm chart . not rendered: ckptlint-render, the renderer of Helm charts and kustomizations, " +
		"is not installed beside ckptlint or on PATH (it comes in the release archive; from a clone: go install ./cmd/...)\n"
)

// writeChart writes renderChart into a new directory and returns it.
func writeChart(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range renderChart {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// pathWithoutRenderer is this process's PATH without the directories that
// hold a ckptlint-render (a `go install ./cmd/...` in GOPATH/bin), so that
// a test knows which renderer, if any, ckptlint finds.
func pathWithoutRenderer() string {
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(d, "ckptlint-render")); err == nil {
			continue
		}
		keep = append(keep, d)
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

// copyBinary copies the executable src into a new directory of its own
// and returns the copy's path.
func copyBinary(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := copyFile(src, dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

// checkRendered checks that a lint of writeChart's chart rendered it: the
// CKPT513 finding at the template, exit code 1 (an error), no note about
// the renderer.
func checkRendered(t *testing.T, how string, r result) {
	t.Helper()
	if r.code != 1 || !strings.Contains(r.stdout, renderedFinding) || !strings.Contains(r.stdout, renderedRule) ||
		strings.Contains(r.stderr, "not rendered") {
		t.Errorf("%s: %v\nwant exit code 1 with %q ... %q, the chart rendered", how, r, renderedFinding, renderedRule)
	}
}

func TestRendererInstalls(t *testing.T) {
	chart := writeChart(t)
	noRenderer := "PATH=" + pathWithoutRenderer()
	lint := []string{"lint", "--no-cache", "."}

	// (a) As every install leaves them (the release archive and image,
	// go install ./cmd/..., the action's build step): side by side.
	checkRendered(t, "ckptlint with ckptlint-render beside it", run(t, chart, []string{noRenderer}, ckptlint, lint...))

	// (b) ckptlint alone (go build -o ckptlint ./cmd/ckptlint, a binary
	// copied out of the archive): the chart is a note naming what to
	// install, not a failure, and nothing else is linted; the exit code is
	// that of a run that found no configuration, 0.
	alone := copyBinary(t, ckptlint)
	r := run(t, chart, []string{noRenderer}, alone, lint...)
	if r.code != 0 || !strings.Contains(r.stderr, notInstalled) || strings.Contains(r.stdout, "CKPT513") ||
		!strings.Contains(r.stderr, "ckptlint: warning: no Flink or Hadoop configuration file found under .") {
		t.Errorf("ckptlint without ckptlint-render: %v\nwant exit code 0, the note %q and nothing linted", r, notInstalled)
	}

	// (c) ckptlint alone, the renderer on PATH (two packages, or a
	// go install beside a ckptlint copied elsewhere).
	onPath := "PATH=" + filepath.Dir(copyBinary(t, ckptlintRender)) + string(os.PathListSeparator) + pathWithoutRenderer()
	checkRendered(t, "ckptlint with ckptlint-render on PATH", run(t, chart, []string{onPath}, alone, lint...))

	// With one result cache for the three: the renderer a run would start
	// is part of the key (docs/cache.md), so a run without it is not
	// replayed once it is installed, nor the other way round.
	cached := "CKPTLINT_CACHE_DIR=" + t.TempDir()
	for i, step := range []struct {
		path     string
		rendered bool
	}{{noRenderer, false}, {onPath, true}, {noRenderer, false}, {onPath, true}} {
		r := run(t, chart, []string{cached, step.path}, alone, "lint", ".")
		how := fmt.Sprintf("cached run %d, renderer on PATH %v", i+1, step.rendered)
		if step.rendered {
			checkRendered(t, how, r)
		} else if r.code != 0 || !strings.Contains(r.stderr, notInstalled) {
			t.Errorf("%s: %v\nwant exit code 0 and the note %q", how, r, notInstalled)
		}
	}
}
