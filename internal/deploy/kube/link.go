package kube

import (
	"fmt"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// Link joins the manifests of one repository (or one rendered chart or
// kustomization with the manifests beside it): an env var's
// configMapKeyRef takes the ConfigMap's value when a manifest holds that
// ConfigMap in the workload's namespace (its Text too, with its
// positions, when the value is FLINK_PROPERTIES), an envFrom configMapRef
// adds the ConfigMap's keys as variables (before the container's own env,
// which wins: EnvFromSource, API reference), and a persistentVolumeClaim
// mount takes the claim's access modes. What stays unresolved keeps its
// Unknown reason; notes name a key a ConfigMap of the repository lacks.
func Link(ms []*Manifest) (notes []string) {
	cms := map[nsName]*deploy.ConfigMap{}
	claims := map[nsName]*Claim{}
	for _, m := range ms {
		for i := range m.ConfigMaps {
			cm := &m.ConfigMaps[i]
			cms[nsName{namespaceOf(cm.Namespace), cm.Name}] = cm
		}
		for i := range m.Claims {
			c := &m.Claims[i]
			claims[nsName{namespaceOf(c.Namespace), c.Name}] = c
		}
	}
	for _, m := range ms {
		inserted := map[int][]deploy.EnvVar{} // envFrom variables per workload
		for _, rf := range m.refs {
			w := &m.Workloads[rf.workload]
			switch rf.kind {
			case refEnvKey:
				if note := linkEnvKey(w, rf, cms[nsName{rf.namespace, rf.name}]); note != "" {
					notes = append(notes, note)
				}
			case refEnvFrom:
				evs, note := linkEnvFrom(w, rf, cms[nsName{rf.namespace, rf.name}])
				if note != "" {
					notes = append(notes, note)
				}
				inserted[rf.workload] = append(inserted[rf.workload], evs...)
			case refClaim:
				if c := claims[nsName{rf.namespace, rf.name}]; c != nil {
					w.Mounts[rf.item].Volume.AccessModes = c.AccessModes
				}
			}
		}
		for wi, evs := range inserted {
			w := &m.Workloads[wi]
			w.Env = append(evs, w.Env...)
		}
		m.refs = nil
	}
	return notes
}

type nsName struct{ ns, name string }

// linkEnvKey gives an env var of w its configMapKeyRef's value from cm
// (nil: not in the repository, the var stays unknown); the note names a
// key cm lacks.
func linkEnvKey(w *deploy.Workload, rf ref, cm *deploy.ConfigMap) (note string) {
	if cm == nil {
		return ""
	}
	t, ok := cm.Data[rf.key]
	if !ok {
		if !rf.optional {
			return fmt.Sprintf("%s: %s: env %s names key %q, which ConfigMap %s (%s) does not have: Kubernetes does not start the container", rf.loc, w.Name, w.Env[rf.item].Name, rf.key, cm.Name, cm.Loc)
		}
		return ""
	}
	e := &w.Env[rf.item]
	e.Value, e.Unknown = string(t.Content()), ""
	if e.Name == "FLINK_PROPERTIES" {
		e.Text = t
	}
	return ""
}

// linkEnvFrom is the variables an envFrom configMapRef adds to w from cm;
// the note names a ConfigMap the repository does not hold.
func linkEnvFrom(w *deploy.Workload, rf ref, cm *deploy.ConfigMap) (evs []deploy.EnvVar, note string) {
	if cm == nil {
		if !rf.optional {
			note = fmt.Sprintf("%s: %s: envFrom configMapRef %s is not in the repository: its variables are unknown", rf.loc, w.Name, rf.name)
		}
		return nil, note
	}
	for _, k := range sortedKeys(cm.Data) {
		t := cm.Data[k]
		ev := deploy.EnvVar{Name: rf.prefix + k, Value: string(t.Content()), Loc: rf.loc}
		if ev.Name == "FLINK_PROPERTIES" {
			ev.Text = t
		}
		evs = append(evs, ev)
	}
	return evs, ""
}
