package cm

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// Bounds of a YAML variables file, the numbers docs/security.md gives for
// every YAML file ckptlint reads (internal/discover add.go maxFlowItems,
// maxFlowDepth): a parser builds a node per flow item, and nesting costs
// more with depth. Aliases are not followed into collections, so no alias
// bomb grows; a version variable may be an alias to a scalar.
const (
	maxFlowItems = 40000
	maxFlowDepth = 64
	maxDocuments = 1000
	maxNesting   = 32 // mappings followed below the top level
)

// ansibleVersions reads an Ansible variables file (YAML; JSON is YAML
// too): a key naming a Flink or Hadoop version (flink_version,
// hadoop_version, flinkVersion, a `version` below a `flink:` or `hadoop:`
// mapping) whose value starts with a version, and every string value that
// names a distribution archive (flink_url: …/flink-1.17.1-bin-scala_2.12.tgz).
func ansibleVersions(file string, src []byte) ([]deploy.Version, []string) {
	if bytes.HasPrefix(bytes.TrimSpace(src), []byte("$ANSIBLE_VAULT;")) {
		return nil, []string{file + ":1: not read: encrypted with ansible-vault"}
	}
	if n := flowItems(src); n > maxFlowItems {
		return nil, []string{fmt.Sprintf("%s:1: not read: %d flow-collection items (',', '[' or '{'); YAML files with up to %d are read", file, n, maxFlowItems)}
	}
	if d := flowDepth(src); d > maxFlowDepth {
		return nil, []string{fmt.Sprintf("%s:1: not read: YAML flow collections nested %d levels deep; up to %d are read", file, d, maxFlowDepth)}
	}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var out []deploy.Version
	for docs := 0; docs < maxDocuments; docs++ {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return out, []string{fmt.Sprintf("%s: not read as YAML: %v", file, err)}
		}
		w := &yamlWalk{file: file}
		w.node(&n, "", 0)
		out = append(out, w.out...)
	}
	return out, nil
}

type yamlWalk struct {
	file string
	out  []deploy.Version
}

func (w *yamlWalk) add(v ...deploy.Version) {
	if len(w.out)+len(v) <= maxVersions {
		w.out = append(w.out, v...)
	}
}

// node walks a node; parent is the key of the mapping holding it.
func (w *yamlWalk) node(n *yaml.Node, parent string, depth int) {
	if n == nil || depth > maxNesting {
		return
	}
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			w.node(c, parent, depth+1)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			w.pair(k, v, parent, depth)
		}
	case yaml.ScalarNode:
		w.add(deploy.Tarballs(n.Value, deploy.Loc{File: w.file, Line: n.Line})...)
	}
}

func (w *yamlWalk) pair(k, v *yaml.Node, parent string, depth int) {
	if k.Kind != yaml.ScalarNode {
		return
	}
	val := v
	if v.Kind == yaml.AliasNode && v.Alias != nil && v.Alias.Kind == yaml.ScalarNode {
		val = v.Alias
	}
	if val.Kind == yaml.ScalarNode {
		if p := versionKey(parent, k.Value); p != "" {
			if ver := deploy.VersionPrefix(strings.TrimSpace(val.Value)); ver != "" {
				w.add(deploy.Version{Product: p, Version: ver, What: versionWhat(parent, k.Value, val.Value), Loc: deploy.Loc{File: w.file, Line: k.Line}})
			}
		}
	}
	w.node(v, k.Value, depth+1)
}

// versionKey is the product whose version a key states: flink_version
// (and the spellings deploy.VersionVar accepts), or version below a
// mapping named flink or hadoop.
func versionKey(parent, key string) string {
	if p := deploy.VersionVar(key); p != "" {
		return p
	}
	if strings.EqualFold(key, "version") {
		return deploy.VersionVar(parent + "_version")
	}
	return ""
}

func versionWhat(parent, key, val string) string {
	if deploy.VersionVar(key) == "" {
		key = parent + "." + key
	}
	return key + ": " + val
}

// flowItems counts the bytes that open or separate flow-collection items.
func flowItems(src []byte) int {
	return bytes.Count(src, []byte{','}) + bytes.Count(src, []byte{'['}) + bytes.Count(src, []byte{'{'})
}

// flowDepth is the deepest nesting of '[' and '{', on the bytes alone.
func flowDepth(src []byte) int {
	depth, deepest := 0, 0
	for _, c := range src {
		switch c {
		case '[', '{':
			depth++
			deepest = max(deepest, depth)
		case ']', '}':
			depth = max(depth-1, 0)
		}
	}
	return deepest
}
