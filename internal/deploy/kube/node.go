package kube

import (
	"regexp"
	"strconv"
	"sync"

	"go.yaml.in/yaml/v3"
)

// target is the node an alias names, or n itself; nil stays nil.
func target(n *yaml.Node) *yaml.Node {
	if n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		return n.Alias
	}
	return n
}

// lookup returns the key and value nodes of key in mapping m (the last
// pair, as Kubernetes' decoder keeps it), nil when absent.
func lookup(m *yaml.Node, key string) (k, v *yaml.Node) {
	m = target(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if kn := target(m.Content[i]); kn.Kind == yaml.ScalarNode && kn.Value == key {
			k, v = m.Content[i], m.Content[i+1]
		}
	}
	return k, v
}

// get is the value of key in mapping m, through an alias.
func get(m *yaml.Node, key string) *yaml.Node {
	_, v := lookup(m, key)
	return target(v)
}

// text is the value of a scalar, "" for anything else.
func text(n *yaml.Node) string {
	n = target(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return ""
	}
	return n.Value
}

// seq is the items of a sequence, nil for anything else.
func seq(n *yaml.Node) []*yaml.Node {
	n = target(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}

// strs is a sequence of scalars as strings.
func strs(n *yaml.Node) []string {
	var out []string
	for _, it := range seq(n) {
		if s := text(it); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// labels is metadata.labels.
func labels(meta *yaml.Node) map[string]string {
	l := get(meta, "labels")
	if l == nil || l.Kind != yaml.MappingNode {
		return nil
	}
	out := map[string]string{}
	for i := 0; i+1 < len(l.Content); i += 2 {
		out[text(l.Content[i])] = text(l.Content[i+1])
	}
	return out
}

// kindName names a node kind for notes.
func kindName(n *yaml.Node) string {
	switch {
	case n == nil:
		return "nothing"
	case n.Kind == yaml.MappingNode:
		return "mapping"
	case n.Kind == yaml.SequenceNode:
		return "list"
	case n.Tag == "!!null":
		return "null"
	}
	return "scalar"
}

// yamlLine finds the line yaml.v3 names in an error ("yaml: line 7: ...").
var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

// yamlErr splits a yaml.v3 error into its line (0 when it names none)
// and message.
func yamlErr(err error) (int, string) {
	msg := err.Error()
	if m := yamlLine().FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return line, m[2]
	}
	if len(msg) > 6 && msg[:6] == "yaml: " {
		msg = msg[6:]
	}
	return 0, msg
}
