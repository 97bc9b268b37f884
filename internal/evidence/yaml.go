package evidence

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"
)

// parseYAML reads docker-compose files, Kubernetes manifests and Helm
// values.yaml (every document of the file) and takes the image references
// they hold: a scalar `image: flink:1.17.1` anywhere (compose services,
// pod specs, FlinkDeployment spec.image), and Helm's split form
// `image: {repository: flink, tag: "1.17.1"}`.
func parseYAML(path string, src []byte) ([]Item, error) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var items []Item
	for docs := 0; docs < 1000; docs++ {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return items, fmt.Errorf("not read as YAML: %v", err)
		}
		own := flinkDeployment(&n)
		walkYAML(&n, 0, func(it Item) {
			it.Path, it.Deployment = path, own
			items = append(items, it)
		})
	}
	return items, nil
}

// flinkDeployment reports whether the document doc is a FlinkDeployment
// (kind: FlinkDeployment at its top level): the Flink Kubernetes
// Operator's custom resource, whose images are its own processes'.
func flinkDeployment(doc *yaml.Node) bool {
	m := doc
	if m.Kind == yaml.DocumentNode && len(m.Content) == 1 {
		m = m.Content[0]
	}
	if m.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k, v := m.Content[i], m.Content[i+1]; k.Value == "kind" && v.Kind == yaml.ScalarNode {
			return v.Value == "FlinkDeployment"
		}
	}
	return false
}

func walkYAML(n *yaml.Node, depth int, emit func(Item)) {
	if n == nil || depth > 100 {
		return
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Value == "image" {
				switch v.Kind {
				case yaml.ScalarNode:
					if it, ok := imageItem("", v.Line, v.Value); ok {
						emit(it)
					}
				case yaml.MappingNode:
					if it, ok := helmImage(v); ok {
						emit(it)
					}
				}
			}
		}
	}
	for _, c := range n.Content {
		walkYAML(c, depth+1, emit)
	}
}

// helmImage reads {repository: flink, tag: "1.17"} (registry optional).
func helmImage(m *yaml.Node) (Item, bool) {
	var repo, tag *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		switch m.Content[i].Value {
		case "repository", "name":
			repo = m.Content[i+1]
		case "tag":
			tag = m.Content[i+1]
		}
	}
	if repo == nil || tag == nil || repo.Kind != yaml.ScalarNode || tag.Kind != yaml.ScalarNode {
		return Item{}, false
	}
	return imageItem("", tag.Line, repo.Value+":"+tag.Value)
}
