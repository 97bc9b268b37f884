// Package render renders Helm charts and Kustomize overlays the way their
// users do, with the libraries their users run (helm.sh/helm/v3's chart
// loader and template engine, sigs.k8s.io/kustomize/api's krusty), into
// YAML documents each mapped back to the file it came from, for the
// Kubernetes reader (internal/deploy/kube).
//
// Rendering reads only what the caller's Read callback hands it (the run's
// bounded file system: never the disk directly, never outside the
// repository), never touches the network or a cluster (Helm's engine runs
// without a cluster, so `lookup` returns an empty map; getHostByName
// returns ""; values.schema.json is not checked, since its $refs may name
// URLs and files; Kustomize's remote resources are not fetched, its plugins
// and helmCharts are off) and runs in a child process, ckptlint-render
// (package renderer), bounded by time, output and memory (Limits): a
// template that loops or recurses, or makes a huge output, is stopped
// with an error naming the chart, and cannot stall or exhaust the run.
package render

import (
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Read returns the bytes of a file of the repository by its display path
// (slash-separated), or an error for a file that does not exist, lies
// outside the repository or is over the run's budget.
type Read func(displayPath string) ([]byte, error)

// Limits bound one rendering.
type Limits struct {
	// Time is the wall time of the child process, loading included.
	Time time.Duration
	// Output bounds the bytes of the rendered documents together.
	Output int
	// Memory bounds the child's Go heap.
	Memory int64
	// Files bounds the files read (a chart's files, a kustomization's
	// resources, patches and generator files), Bytes their size together.
	Files int
	Bytes int
}

// DefaultLimits are ten seconds (a real chart renders in well under one), the
// output of one configuration file (parsed.MaxFileSize), 1 GiB of heap,
// the files and bytes of the version-evidence search
// (evidence.DefaultLimits: 1,000 files, 32 MiB).
var DefaultLimits = Limits{Time: 10 * time.Second, Output: parsed.MaxFileSize, Memory: 1 << 30, Files: 1000, Bytes: 32 << 20}

// Doc is one rendered YAML document.
type Doc struct {
	// Source is the display path of the file the document came from:
	// the chart's template (a rendered chart), the resource file or the
	// kustomization whose generator made it (Kustomize). For
	// SplitHelmOutput it is the `# Source:` name as Helm prints it
	// ("chart/templates/x.yaml").
	Source string
	Text   []byte
}

// Output is what a rendering made.
type Output struct {
	// What names the chart or kustomization ("helm chart charts/flink",
	// "kustomization deploy/prod"), for messages.
	What string
	// Source is the deploy.Workload Source of its workloads: "helm" or
	// "kustomize".
	Source string
	Docs   []Doc
	// Files are the files read, by display path: the documents' sources,
	// and the files a document's ConfigMap data may be copied from
	// (a chart's .Files.Get, a configMapGenerator's files).
	Files map[string][]byte
	// Notes are what was not read or done, one line each, naming the file.
	Notes []string
}

// Error is a rendering that failed: What names the chart or
// kustomization, Err says why.
type Error struct {
	What string
	Err  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s not rendered: %s", e.What, clip(e.Err)) }

// maxErr bounds the reason an Error gives: Helm's error for a template
// including itself repeats the include chain a thousand times. The start
// and the end (where Helm and kustomize say what failed) are kept.
const maxErr = 600

func clip(s string) string {
	if len(s) <= maxErr {
		return s
	}
	head, tail := s[:maxErr/2], s[len(s)-maxErr/2:]
	for len(head) > 0 && !utf8.ValidString(head) {
		head = head[:len(head)-1]
	}
	for len(tail) > 0 && !utf8.ValidString(tail) {
		tail = tail[1:]
	}
	return fmt.Sprintf("%s …[%d bytes cut]… %s", head, len(s)-len(head)-len(tail), tail)
}
