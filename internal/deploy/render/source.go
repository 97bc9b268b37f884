package render

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/ckptlint/ckptlint/internal/deploy"
	"github.com/ckptlint/ckptlint/internal/deploy/kube"
)

// Manifests reads the rendered documents with the Kubernetes reader and
// puts every fact back in the file it came from. A Loc's line is the line
// of the source file that reads the same (trimmed) as the rendered line,
// the lines matched in order; a line the template wrote with a
// placeholder, or kustomize with a patch, takes the line of the nearest
// matched line before it (the object's start, at worst the file's first
// line). A ConfigMap value or FLINK_PROPERTIES Text is Exact when its
// block is in the source file verbatim (a data block a template copies as
// it is), or when its content is a whole file the rendering read (a
// chart's .Files.Get, a configMapGenerator's files: the Text is then that
// file, Exact from its first byte); otherwise it is its content, at the
// mapped line of its key.
func Manifests(out *Output) ([]*kube.Manifest, []string) {
	notes := append([]string(nil), out.Notes...)
	var ms []*kube.Manifest
	for i, d := range out.Docs {
		name := fmt.Sprintf("%s#%d", d.Source, i)
		m, n := kube.Read(name, d.Text)
		for _, note := range n {
			notes = append(notes, strings.Replace(note, name, d.Source+" (rendered)", 1))
		}
		src, ok := out.Files[d.Source]
		mp := newLineMap(d.Text, src, ok)
		relocate(m, d, src, mp, out)
		ms = append(ms, m)
	}
	return ms, notes
}

// relocate maps every Loc and Text of m, read from rendered document d,
// onto its source.
func relocate(m *kube.Manifest, d Doc, src []byte, mp lineMap, out *Output) {
	m.Path = d.Source
	loc := func(l *deploy.Loc) {
		if l.File == "" && l.Line == 0 {
			return
		}
		*l = deploy.Loc{File: d.Source, Line: mp.line(l.Line)}
	}
	for i := range m.Workloads {
		w := &m.Workloads[i]
		w.Source = out.Source
		loc(&w.Loc)
		loc(&w.RoleLoc)
		loc(&w.ReplicasLoc)
		loc(&w.ImageLoc)
		for j := range w.Env {
			e := &w.Env[j]
			if e.Text != nil {
				e.Text = retext(e.Text, d, src, mp, out)
			}
			loc(&e.Loc)
		}
		for j := range w.Mounts {
			loc(&w.Mounts[j].Loc)
			loc(&w.Mounts[j].Volume.Loc)
		}
	}
	for i := range m.ConfigMaps {
		cm := &m.ConfigMaps[i]
		loc(&cm.Loc)
		for k, t := range cm.Data {
			cm.Data[k] = retext(t, d, src, mp, out)
		}
	}
	for i := range m.Claims {
		loc(&m.Claims[i].Loc)
	}
}

// retext maps a Text of a rendered document onto the files.
func retext(t *deploy.Text, d Doc, src []byte, mp lineMap, out *Output) *deploy.Text {
	content := t.Content()
	n := &deploy.Text{Name: t.Name, Container: d.Source, Loc: deploy.Loc{File: d.Source, Line: mp.keyLine(t.Loc.Line, t.Name)}, Src: content}
	if t.Exact {
		// The block's lines, indentation included, verbatim in the source.
		from := bytes.LastIndexByte(d.Text[:t.Start], '\n') + 1
		block := d.Text[from:t.End]
		if i := bytes.Index(src, block); i >= 0 && !bytes.Contains(src[i+1:], block) {
			start := i + (t.Start - from)
			n.Exact, n.Start, n.End, n.Indent = true, start, i+len(block), t.Indent
			n.Src = blank(src, start, n.End)
			return n
		}
	}
	// A whole file the rendering read (the template's own source aside).
	var match string
	for _, p := range slices.Sorted(maps.Keys(out.Files)) {
		f := out.Files[p]
		if p == d.Source || len(bytes.TrimSpace(content)) == 0 {
			continue
		}
		if bytes.Equal(bytes.TrimRight(f, "\r\n"), bytes.TrimRight(content, "\n")) && !bytes.Contains(f, []byte("\r")) {
			if match != "" {
				return n // two files hold it: which one is not known
			}
			match = p
		}
	}
	if match != "" {
		f := out.Files[match]
		return &deploy.Text{Name: t.Name, Container: match, Loc: deploy.Loc{File: match, Line: 1}, Src: f, Exact: true, Start: 0, End: len(f)}
	}
	return n
}

// blank is src cut at end with every byte before start a space (line
// breaks kept), as deploy.Text's Src.
func blank(src []byte, start, end int) []byte {
	out := make([]byte, end)
	for i := range start {
		if c := src[i]; c == '\n' || c == '\r' {
			out[i] = c
		} else {
			out[i] = ' '
		}
	}
	copy(out[start:], src[start:end])
	return out
}

// lineMap maps the lines of a rendered document to lines of its source.
type lineMap struct {
	to  []int // rendered line (1-based) → source line, 0 when unknown
	src [][]byte
}

// newLineMap matches each rendered line to the source line that reads
// the same once trimmed, else to one that writes the same key ("replicas:"
// for a rendered "replicas: 6" the template wrote "replicas: {{ ... }}";
// a "- " item marker aside, since kustomize writes the fields of an item
// in its own order): the first such line after the previous match, else
// the one nearest to it.
func newLineMap(rendered, src []byte, ok bool) lineMap {
	rl := bytes.Split(rendered, []byte("\n"))
	mp := lineMap{to: make([]int, len(rl)+1)}
	if !ok {
		return mp
	}
	mp.src = bytes.Split(src, []byte("\n"))
	exact, keys := map[string][]int{}, map[string][]int{}
	for i, l := range mp.src {
		t := string(bytes.TrimSpace(l))
		if t == "" || t == "---" {
			continue
		}
		exact[t] = append(exact[t], i+1)
		if k := keyOf(t); k != "" {
			keys[k] = append(keys[k], i+1)
		}
	}
	last := 0
	for i, l := range rl {
		t := string(bytes.TrimSpace(l))
		cands := exact[t]
		if len(cands) == 0 {
			cands = keys[keyOf(t)]
		}
		if len(cands) == 0 || t == "" {
			continue
		}
		j := sort.SearchInts(cands, last+1)
		if j == len(cands) {
			j = len(cands) - 1 // none after: the nearest, the last
		}
		last = cands[j]
		mp.to[i+1] = last
	}
	return mp
}

// keyOf is the key a YAML line writes ("replicas:"), "" for none.
func keyOf(t string) string {
	t = strings.TrimPrefix(t, "- ")
	if strings.HasPrefix(t, "#") {
		return ""
	}
	if i := strings.Index(t, ":"); i > 0 && (i+1 == len(t) || t[i+1] == ' ') {
		return t[:i+1]
	}
	return ""
}

// line is the source line of rendered line l: its match, or the nearest
// matched line before it, or 1.
func (mp lineMap) line(l int) int {
	for ; l > 0 && l < len(mp.to); l-- {
		if mp.to[l] > 0 {
			return mp.to[l]
		}
	}
	return 1
}

// keyLine is line, but for a key the template did not write as rendered
// (a configMapGenerator's `literals: - key=value`, `files: - key=path`)
// the first source line naming the key.
func (mp lineMap) keyLine(l int, key string) int {
	if l > 0 && l < len(mp.to) && mp.to[l] > 0 {
		return mp.to[l]
	}
	for i, s := range mp.src {
		if bytes.Contains(s, []byte(key)) {
			return i + 1
		}
	}
	return mp.line(l)
}
