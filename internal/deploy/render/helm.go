package render

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Chart is a Helm chart of the repository to render as `helm template`
// does.
type Chart struct {
	// Dir is the display path of the chart's directory (the one holding
	// Chart.yaml).
	Dir string
	// Files are the display paths of every file under Dir (discovery lists
	// them; Read reads them), subcharts in charts/ included.
	Files []string
	// Values are the display paths of `--values` files, applied in order
	// over the chart's values.yaml.
	Values []string
	// Release and Namespace are .Release.Name and .Release.Namespace
	// ("release-name" and "default" when empty, as `helm template`).
	Release, Namespace string
}

// Helm renders a chart: its files and the values files read through read,
// loaded with Helm's loader.LoadFiles (so .helmignore, subcharts in
// charts/, values.yaml are Helm's own), dependencies enabled by
// conditions and tags as Helm processes them, and every template rendered
// by Helm's engine without a cluster. It runs in a child process bounded
// by lim (ckptlint-render: child.go).
func Helm(c Chart, read Read, lim Limits) (*Output, error) {
	what := "helm chart " + c.Dir
	req := Request{Kind: "helm", What: what, Dir: c.Dir, Values: c.Values, Release: c.Release, Namespace: c.Namespace, Limits: lim, Files: map[string][]byte{}}
	total := 0
	for _, f := range append(append([]string(nil), c.Files...), c.Values...) {
		if _, ok := req.Files[f]; ok {
			continue
		}
		if len(req.Files) >= lim.Files {
			return nil, &Error{What: what, Err: fmt.Sprintf("the chart has more than %d files", lim.Files)}
		}
		b, err := read(f)
		if err != nil {
			return nil, &Error{What: what, Err: fmt.Sprintf("%s: %v", f, err)}
		}
		if total += len(b); total > lim.Bytes {
			return nil, &Error{What: what, Err: fmt.Sprintf("its files hold more than %d bytes", lim.Bytes)}
		}
		req.Files[f] = b
	}
	return isolate(req)
}

// docSeparator is a YAML document marker line.
var docSeparator = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^---[ \t]*(?:#.*)?\r?$`) })

// SplitDocs splits rendered YAML into its non-empty documents.
func SplitDocs(s string) []string {
	var out []string
	for _, d := range docSeparator().Split(s, -1) {
		if !onlyComments(d) {
			out = append(out, strings.TrimLeft(d, "\r\n"))
		}
	}
	return out
}

// onlyComments tells a document of blank and comment lines only (Helm's
// "# Source:" header of a template that rendered nothing).
func onlyComments(d string) bool {
	for l := range strings.Lines(d) {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
			return false
		}
	}
	return true
}

// sourceLine is the comment `helm template` writes before each document.
var sourceLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^# Source: (.+?)\r?$`) })

// SplitHelmOutput splits the output of `helm template` (read from
// standard input) into its documents, each with the name of its `#
// Source:` comment ("chart/templates/x.yaml"); a document without one has
// Source "". ok is false when no document has one: the input is not Helm's
// output.
func SplitHelmOutput(src []byte) (docs []Doc, ok bool) {
	for _, d := range SplitDocs(string(src)) {
		doc := Doc{Text: []byte(d)}
		if m := sourceLine().FindStringSubmatch(d); m != nil {
			doc.Source, ok = m[1], true
		}
		docs = append(docs, doc)
	}
	return docs, ok
}
