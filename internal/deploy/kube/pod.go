package kube

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// object is the workload object a pod template belongs to.
type object struct {
	kind, name, namespace string
	at                    *yaml.Node // metadata.name key (the kind key without one)
	meta                  *yaml.Node // the object's metadata
	replicasK, replicasV  *yaml.Node
	// claimTemplates are a StatefulSet's volumeClaimTemplates.
	claimTemplates []*yaml.Node
}

// mainContainers are container names that are Flink's whatever their
// image: Flink's docs name them jobmanager and taskmanager, the operator
// requires flink-main-container ("Pod Template": "Do not change the main
// container name").
var mainContainers = map[string]bool{"jobmanager": true, "taskmanager": true, "flink-main-container": true}

// pod reads a pod template (metadata and spec): one Workload per
// container (init containers run before and are not read).
func (r *reader) pod(o object, pod *yaml.Node) {
	spec := get(pod, "spec")
	containers := seq(get(spec, "containers"))
	vols := r.volumes(spec, o.claimTemplates)
	for _, c := range containers {
		cname := text(get(c, "name"))
		w := deploy.Workload{Name: o.kind + "/" + o.name, Source: Source, Loc: r.loc(o.at)}
		if len(containers) > 1 {
			w.Name += "/" + cname
		}
		if k, v := lookup(c, "image"); k != nil {
			w.Image, w.ImageLoc = text(v), r.loc(k)
		}
		w.Role, w.RoleLoc = r.role(c)
		if w.Role == "" && (len(containers) == 1 || mainContainers[cname] || strings.Contains(w.Image, "flink")) {
			w.Role, w.RoleLoc = r.labelRole(get(pod, "metadata"), o.meta)
		}
		w.Group = r.group(o, get(pod, "metadata"))
		if o.replicasV != nil {
			if n, err := strconv.Atoi(text(o.replicasV)); err == nil && n >= 0 {
				w.Replicas, w.ReplicasLoc = n, r.loc(o.replicasK)
			} else {
				r.note(o.replicasK.Line, "%s %s: replicas %q is not a number", o.kind, o.name, text(o.replicasV))
			}
		}
		r.m.Workloads = append(r.m.Workloads, w)
		wi := len(r.m.Workloads) - 1
		r.env(wi, c, o.namespace)
		r.mounts(wi, c, vols, o.namespace)
	}
}

// role reads a container's command and args.
func (r *reader) role(c *yaml.Node) (string, deploy.Loc) {
	cmdK, cmdV := lookup(c, "command")
	argsK, argsV := lookup(c, "args")
	role := roleOf(append(strs(cmdV), strs(argsV)...))
	if role == "" {
		return "", deploy.Loc{}
	}
	// The key that named it: args unless the command alone did.
	if cmdK != nil && roleOf(strs(cmdV)) == role {
		return role, r.loc(cmdK)
	}
	return role, r.loc(argsK)
}

// labelRole reads the component label of the pod template, then of the
// object.
func (r *reader) labelRole(metas ...*yaml.Node) (string, deploy.Loc) {
	for _, meta := range metas {
		for _, l := range roleLabels {
			if k, v := lookup(get(meta, "labels"), l); k != nil {
				if role := roleOfLabel(text(v)); role != "" {
					return role, r.loc(k)
				}
			}
		}
	}
	return "", deploy.Loc{}
}

// group is the namespace and the app label (of the pod template, else of
// the object) of a workload, "" without an app label.
func (r *reader) group(o object, podMeta *yaml.Node) string {
	for _, meta := range []*yaml.Node{podMeta, o.meta} {
		ls := labels(meta)
		for _, l := range appLabels {
			if v := ls[l]; v != "" {
				return namespaceOf(o.namespace) + "/" + v
			}
		}
	}
	return ""
}

// env reads a container's env and envFrom.
func (r *reader) env(wi int, c *yaml.Node, ns string) {
	w := &r.m.Workloads[wi]
	for _, from := range seq(get(c, "envFrom")) {
		prefix := text(get(from, "prefix"))
		if k, ref := lookup(from, "configMapRef"); k != nil {
			r.m.refs = append(r.m.refs, ref0(refEnvFrom, wi, len(w.Env), ns, text(get(ref, "name")), "", prefix, text(get(ref, "optional")) == "true", r.loc(k)))
		}
		if k, ref := lookup(from, "secretRef"); k != nil {
			r.note(k.Line, "%s: envFrom secretRef %s: its variables are not in the repository, so unknown", w.Name, text(get(ref, "name")))
		}
	}
	known := map[string]string{}
	for _, e := range seq(get(c, "env")) {
		nameK, nameV := lookup(e, "name")
		if nameK == nil {
			continue
		}
		ev := deploy.EnvVar{Name: text(nameV), Loc: r.loc(nameK)}
		valK, valV := lookup(e, "value")
		_, from := lookup(e, "valueFrom")
		switch {
		case from != nil:
			ev.Unknown = r.valueFrom(wi, len(w.Env), from, ns)
		case valV != nil:
			ev.Value = text(valV)
			// Kubernetes expands $(VAR) in a value with the variables
			// defined before it in the container ("$$" is a literal "$",
			// an unknown reference stays as written: EnvVar.value, API
			// reference).
			expanded := expand(ev.Value, known)
			if ev.Name == "FLINK_PROPERTIES" {
				ev.Text = r.blocks.Text(ev.Name, valK, valV)
				if expanded != ev.Value {
					ev.Text.Exact, ev.Text.Src = false, []byte(expanded)
				}
			}
			ev.Value = expanded
		}
		if ev.Unknown == "" {
			known[ev.Name] = ev.Value
		} else {
			delete(known, ev.Name)
		}
		w.Env = append(w.Env, ev)
	}
}

// valueFrom describes an env value another object holds; a ConfigMap's
// key is resolved by Link when the repository has it.
func (r *reader) valueFrom(wi, item int, from *yaml.Node, ns string) string {
	if k, ref := lookup(from, "configMapKeyRef"); k != nil {
		name, key := text(get(ref, "name")), text(get(ref, "key"))
		r.m.refs = append(r.m.refs, ref0(refEnvKey, wi, item, ns, name, key, "", text(get(ref, "optional")) == "true", r.loc(k)))
		return fmt.Sprintf("configMapKeyRef %s/%s: the ConfigMap is not in the repository", name, key)
	}
	if ref := get(from, "secretKeyRef"); ref != nil {
		return fmt.Sprintf("secretKeyRef %s/%s: a Secret", text(get(ref, "name")), text(get(ref, "key")))
	}
	if ref := get(from, "fieldRef"); ref != nil {
		return "fieldRef " + text(get(ref, "fieldPath")) + ": set by Kubernetes"
	}
	if ref := get(from, "resourceFieldRef"); ref != nil {
		return "resourceFieldRef " + text(get(ref, "resource")) + ": set by Kubernetes"
	}
	return "valueFrom: not read"
}

func ref0(kind refKind, wi, item int, ns, name, key, prefix string, optional bool, loc deploy.Loc) ref {
	return ref{kind: kind, workload: wi, item: item, namespace: namespaceOf(ns), name: name, key: key, prefix: prefix, optional: optional, loc: loc}
}

// expand applies Kubernetes' $(VAR) expansion with the known variables.
func expand(s string, known map[string]string) string {
	if !strings.Contains(s, "$") {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			sb.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '$':
			sb.WriteByte('$')
			i++
			continue
		case '(':
			if end := strings.IndexByte(s[i+2:], ')'); end >= 0 {
				if v, ok := known[s[i+2:i+2+end]]; ok {
					sb.WriteString(v)
					i += 2 + end
					continue
				}
			}
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// volumes reads a pod's volumes (and a StatefulSet's claim templates) by
// name.
func (r *reader) volumes(spec *yaml.Node, claimTemplates []*yaml.Node) map[string]deploy.Volume {
	out := map[string]deploy.Volume{}
	for _, ct := range claimTemplates {
		k, name := lookup(get(ct, "metadata"), "name")
		if k == nil {
			continue
		}
		out[text(name)] = deploy.Volume{Kind: deploy.VolumeClaim, Name: text(name), PerPod: true,
			AccessModes: strs(get(get(ct, "spec"), "accessModes")), Loc: r.loc(k)}
	}
	for _, v := range seq(get(spec, "volumes")) {
		k, name := lookup(v, "name")
		if k == nil {
			continue
		}
		out[text(name)] = r.volume(v, text(name), r.loc(k))
	}
	return out
}

// volume reads one volume source.
func (r *reader) volume(v *yaml.Node, name string, loc deploy.Loc) deploy.Volume {
	vol := deploy.Volume{Kind: deploy.VolumeOther, Name: name, Loc: loc}
	switch {
	case get(v, "configMap") != nil:
		cm := get(v, "configMap")
		vol.Kind, vol.Name, vol.Items = deploy.VolumeConfigMap, text(get(cm, "name")), items(cm)
	case get(v, "projected") != nil:
		// A projected volume of one ConfigMap is that ConfigMap; of
		// several sources it is read as other.
		srcs := seq(get(get(v, "projected"), "sources"))
		if len(srcs) == 1 && get(srcs[0], "configMap") != nil {
			cm := get(srcs[0], "configMap")
			vol.Kind, vol.Name, vol.Items = deploy.VolumeConfigMap, text(get(cm, "name")), items(cm)
		}
	case get(v, "persistentVolumeClaim") != nil:
		vol.Kind, vol.Name = deploy.VolumeClaim, text(get(get(v, "persistentVolumeClaim"), "claimName"))
	case get(v, "ephemeral") != nil:
		// A generic ephemeral volume: a claim each pod makes for itself.
		spec := get(get(get(v, "ephemeral"), "volumeClaimTemplate"), "spec")
		vol.Kind, vol.PerPod, vol.AccessModes = deploy.VolumeClaim, true, strs(get(spec, "accessModes"))
	case get(v, "emptyDir") != nil:
		vol.Kind = deploy.VolumeEmpty
	case get(v, "hostPath") != nil:
		// Name is the host's path: the repository does not hold it.
		vol.Kind, vol.Name = deploy.VolumeHost, text(get(get(v, "hostPath"), "path"))
	case get(v, "nfs") != nil:
		nfs := get(v, "nfs")
		vol.Kind, vol.Name = deploy.VolumeNFS, text(get(nfs, "server"))+":"+text(get(nfs, "path"))
	}
	return vol
}

// items reads a configMap volume's items: key → path.
func items(cm *yaml.Node) map[string]string {
	its := seq(get(cm, "items"))
	if its == nil {
		return nil
	}
	out := map[string]string{}
	for _, it := range its {
		out[text(get(it, "key"))] = text(get(it, "path"))
	}
	return out
}

// mounts reads a container's volumeMounts.
func (r *reader) mounts(wi int, c *yaml.Node, vols map[string]deploy.Volume, ns string) {
	w := &r.m.Workloads[wi]
	for _, vm := range seq(get(c, "volumeMounts")) {
		pk, pv := lookup(vm, "mountPath")
		if pk == nil {
			continue
		}
		name := text(get(vm, "name"))
		m := deploy.Mount{Path: text(pv), SubPath: text(get(vm, "subPath")), ReadOnly: text(get(vm, "readOnly")) == "true", Loc: r.loc(pk)}
		vol, ok := vols[name]
		if !ok {
			r.note(pk.Line, "%s: volumeMount %q names no volume of the pod", w.Name, name)
			vol = deploy.Volume{Kind: deploy.VolumeOther, Name: name}
		}
		m.Volume = vol
		if vol.Kind == deploy.VolumeClaim && !vol.PerPod {
			r.m.refs = append(r.m.refs, ref0(refClaim, wi, len(w.Mounts), ns, vol.Name, "", "", false, m.Loc))
		}
		w.Mounts = append(w.Mounts, m)
	}
}

// flinkDeployment reads a FlinkDeployment (flink-kubernetes-operator):
// its JobManager and TaskManager, each from spec.image, the component's
// replicas and the flink-main-container of spec.podTemplate merged with
// the component's podTemplate. The operator merges the two templates,
// items of lists by name (PodTemplateUtils.mergePodTemplates, "Pod
// Template" docs); here the component's env, mounts and volumes are read
// after the common ones (a volume of the component's replacing the common
// one of its name; env vars and mounts both kept, the later env var of a
// name winning as in any container).
func (r *reader) flinkDeployment(n *yaml.Node, name, ns string, at *yaml.Node) {
	spec := get(n, "spec")
	imgK, imgV := lookup(spec, "image")
	common := get(spec, "podTemplate")
	for _, comp := range []struct{ key, role string }{{"jobManager", deploy.RoleJobManager}, {"taskManager", deploy.RoleTaskManager}} {
		ck, cv := lookup(spec, comp.key)
		w := deploy.Workload{Name: "FlinkDeployment/" + name + "/" + strings.ToLower(comp.key), Source: Source, Loc: r.loc(at),
			Role: comp.role, RoleLoc: r.loc(at), Group: namespaceOf(ns) + "/" + name}
		if ck != nil {
			w.RoleLoc = r.loc(ck)
		}
		if imgK != nil {
			w.Image, w.ImageLoc = text(imgV), r.loc(imgK)
		}
		if rk, rv := lookup(cv, "replicas"); rk != nil {
			if n, err := strconv.Atoi(text(rv)); err == nil && n >= 0 {
				w.Replicas, w.ReplicasLoc = n, r.loc(rk)
			}
		}
		r.m.Workloads = append(r.m.Workloads, w)
		wi := len(r.m.Workloads) - 1
		// The merged template: volumes by name, then the main container's
		// env and mounts, common first.
		vols := map[string]deploy.Volume{}
		templates := []*yaml.Node{common, get(cv, "podTemplate")}
		for _, pt := range templates {
			for k, v := range r.volumes(get(pt, "spec"), nil) {
				vols[k] = v
			}
		}
		for _, pt := range templates {
			for _, c := range seq(get(get(pt, "spec"), "containers")) {
				if text(get(c, "name")) == "flink-main-container" {
					r.env(wi, c, ns)
					r.mounts(wi, c, vols, ns)
				}
			}
		}
	}
}

// sortedKeys is the keys of a map in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
