package flinkyaml

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// MainContainer is the container Flink runs in; the operator finds it by
// this name (flink-kubernetes-operator docs, "Pod Template": "Do not change
// the main container name").
const MainContainer = "flink-main-container"

// Volume is one entry of a pod template's spec.volumes.
type Volume struct {
	Name string
	// Type is the volume source key as written: persistentVolumeClaim, nfs,
	// csi, emptyDir, hostPath, configMap, ... ("" when none is given).
	Type string
	// Detail names the source: the claim name, server:path, the CSI driver,
	// the host path.
	Detail string
	Span   parsed.Span // the name value
}

// Mount is one volumeMount of the main container.
type Mount struct {
	Volume    string
	MountPath string
	SubPath   string
	ReadOnly  bool
	Span      parsed.Span // the mountPath value
}

// PodTemplate is one pod template of a FlinkDeployment.
type PodTemplate struct {
	// Where is the field path: spec.podTemplate,
	// spec.jobManager.podTemplate or spec.taskManager.podTemplate.
	Where   string
	Volumes []Volume
	// Mounts are the volumeMounts of the flink-main-container.
	Mounts []Mount
	Span   parsed.Span // the podTemplate key
}

// Claim is a PersistentVolumeClaim declared in the same file.
type Claim struct {
	Name        string
	AccessModes []string
}

// readPodTemplates reads the pod templates of a FlinkDeployment spec.
func (f *flattener) readPodTemplates(spec *yaml.Node) []PodTemplate {
	var out []PodTemplate
	for _, where := range []struct{ parent, path string }{
		{"", "spec.podTemplate"}, {"jobManager", "spec.jobManager.podTemplate"}, {"taskManager", "spec.taskManager.podTemplate"},
	} {
		m := spec
		if where.parent != "" {
			_, m = lookup(spec, where.parent)
		}
		k, pt := lookup(m, "podTemplate")
		if k == nil || pt == nil {
			continue
		}
		r := f.loc.nodeRange(k, -1)
		t := PodTemplate{Where: where.path, Span: f.loc.span(r.start, r.end)}
		_, ps := lookup(pt, "spec")
		_, vols := lookup(ps, "volumes")
		for _, v := range seqItems(vols) {
			vol := Volume{}
			if name := f.field(lookup(v, "name")); name != nil {
				vol.Name, vol.Span = name.Value, name.Span
			}
			vol.Type, vol.Detail = volumeSource(v)
			t.Volumes = append(t.Volumes, vol)
		}
		_, cs := lookup(ps, "containers")
		for _, c := range seqItems(cs) {
			if _, n := lookup(c, "name"); scalarText(n) != MainContainer {
				continue
			}
			_, vms := lookup(c, "volumeMounts")
			for _, vm := range seqItems(vms) {
				mp := f.field(lookup(vm, "mountPath"))
				if mp == nil {
					continue
				}
				_, name := lookup(vm, "name")
				_, sub := lookup(vm, "subPath")
				_, ro := lookup(vm, "readOnly")
				t.Mounts = append(t.Mounts, Mount{Volume: scalarText(name), MountPath: mp.Value, SubPath: scalarText(sub),
					ReadOnly: scalarText(ro) == "true", Span: mp.Span})
			}
		}
		out = append(out, t)
	}
	return out
}

// volumeSource returns the source key of a volume and what it names.
func volumeSource(v *yaml.Node) (typ, detail string) {
	v = aliasTarget(v)
	if v.Kind != yaml.MappingNode {
		return "", ""
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k := scalarText(v.Content[i])
		if k == "name" {
			continue
		}
		src := v.Content[i+1]
		switch k {
		case "persistentVolumeClaim":
			_, c := lookup(src, "claimName")
			return k, "claim " + scalarText(c)
		case "nfs":
			_, s := lookup(src, "server")
			_, p := lookup(src, "path")
			return k, scalarText(s) + ":" + scalarText(p)
		case "csi":
			_, d := lookup(src, "driver")
			return k, "driver " + scalarText(d)
		case "hostPath":
			_, p := lookup(src, "path")
			return k, "node path " + scalarText(p)
		case "emptyDir":
			_, m := lookup(src, "medium")
			if strings.EqualFold(scalarText(m), "Memory") {
				return k, "in memory"
			}
			return k, ""
		}
		return k, ""
	}
	return "", ""
}

// seqItems returns the items of a sequence node (through an alias), or nil.
func seqItems(n *yaml.Node) []*yaml.Node {
	if n == nil {
		return nil
	}
	n = aliasTarget(n)
	if n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}

// readClaim reads a PersistentVolumeClaim document; ok is false for any
// other document.
func readClaim(root *yaml.Node) (Claim, bool) {
	_, kind := lookup(root, "kind")
	if scalarText(kind) != "PersistentVolumeClaim" {
		return Claim{}, false
	}
	_, meta := lookup(root, "metadata")
	_, name := lookup(meta, "name")
	_, spec := lookup(root, "spec")
	_, modes := lookup(spec, "accessModes")
	c := Claim{Name: scalarText(name)}
	for _, m := range seqItems(modes) {
		c.AccessModes = append(c.AccessModes, scalarText(m))
	}
	return c, true
}
