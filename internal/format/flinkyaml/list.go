package flinkyaml

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// flow renders the collection or scalar n as Flink's flow string (see
// flow.go). It checks what snakeyaml-engine would check while constructing
// it: tags and duplicate keys. A mapping inside a list is not flattened.
func (f *flattener) flow(n *yaml.Node) (string, *parsed.ParseError) {
	if n.Kind == yaml.AliasNode && n.Alias != nil && (n.Alias.Kind == yaml.MappingNode || n.Alias.Kind == yaml.SequenceNode) {
		n = n.Alias
	}
	prefix, alias := f.anchorFor(n)
	if alias != "" {
		return alias, nil
	}
	s, err := f.flowNode(n)
	return prefix + s, err
}

func (f *flattener) flowNode(n *yaml.Node) (string, *parsed.ParseError) {
	switch n.Kind {
	case yaml.ScalarNode, yaml.AliasNode:
		v, _, err := f.scalarOf(n, n.Column-1, "value")
		if err != nil {
			return "", err
		}
		return flowScalar(v, false), nil
	case yaml.SequenceNode:
		if err := f.checkCollectionTag(n, "!!seq"); err != nil {
			return "", err
		}
		parts := make([]string, 0, len(n.Content))
		for _, c := range n.Content {
			s, err := f.flow(c)
			if err != nil {
				return "", err
			}
			parts = append(parts, s)
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case yaml.MappingNode:
		if err := f.checkCollectionTag(n, "!!map"); err != nil {
			return "", err
		}
		seen := keySet{}
		parts := make([]string, 0, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, kr, err := f.scalarOf(n.Content[i], n.Column-1, "key")
			if err != nil {
				return "", err
			}
			if err := f.unique(seen, key, kr, ""); err != nil {
				return "", err
			}
			val, err := f.flow(n.Content[i+1])
			if err != nil {
				return "", err
			}
			parts = append(parts, flowScalar(key, true)+": "+val)
		}
		return "{" + strings.Join(parts, ", ") + "}", nil
	}
	return "", f.failNode(n, "unexpected YAML node in a list")
}
