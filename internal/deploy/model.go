package deploy

import "path"

// Model is what the deployment files of a repository declare, as the
// sources read them (every fact with its Loc).
type Model struct {
	Workloads  []*Workload
	ConfigMaps []*ConfigMap
	// Texts are configuration files written by other files that no
	// workload is known to read (a shell heredoc writing conf/flink-conf.yaml
	// on the host): linted where they are written.
	Texts    []*Text
	Versions []Version
	// Notes are one-line notes about what could not be read.
	Notes []string
}

// Add appends the facts of o to m.
func (m *Model) Add(o *Model) {
	if o == nil {
		return
	}
	m.Workloads = append(m.Workloads, o.Workloads...)
	m.ConfigMaps = append(m.ConfigMaps, o.ConfigMaps...)
	m.Texts = append(m.Texts, o.Texts...)
	m.Versions = append(m.Versions, o.Versions...)
	m.Notes = append(m.Notes, o.Notes...)
}

// configMap returns the ConfigMap name (in namespace ns when the map
// has one) of the model, or nil: the one declared in the directory of
// file (the workload's manifest) when there is one, else the first.
func (m *Model) configMap(name, ns, file string) *ConfigMap {
	var first *ConfigMap
	for _, c := range m.ConfigMaps {
		if c.Name == name && (c.Namespace == "" || ns == "" || c.Namespace == ns) {
			if path.Dir(c.Loc.File) == path.Dir(file) {
				return c
			}
			if first == nil {
				first = c
			}
		}
	}
	return first
}
