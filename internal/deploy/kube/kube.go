// Package kube reads Kubernetes manifests: the ConfigMaps whose data hold
// configuration files (each key a deploy.Text, with the exact offsets of a
// literal block scalar), and the Deployments, StatefulSets, DaemonSets,
// ReplicaSets, Jobs, CronJobs, Pods and FlinkDeployments (the
// flink-kubernetes-operator's CR: its JobManager and TaskManager pod
// templates) that run Flink or Hadoop, as deploy.Workloads: image, role,
// replicas, environment and the volumes mounted into the container.
//
// It is a pure reader: Read takes one file's bytes; Link joins the files
// of a repository (a pod's configMapKeyRef resolved to the ConfigMap's
// value, a persistentVolumeClaim to the claim's access modes). Flink's
// documented standalone layout ("Kubernetes Setup", Flink docs
// docs/deployment/resource-providers/standalone/kubernetes.md:
// flink-configuration-configmap.yaml holding flink-conf.yaml (release 1.17)
// or config.yaml (1.19 and later) and log4j-console.properties, mounted at
// /opt/flink/conf by jobmanager-session-deployment and
// taskmanager-session-deployment with items) is read as written there
// (testdata/flink-docs-*).
//
// Field meanings follow the Kubernetes API reference (core/v1 PodSpec,
// Container, EnvVar, EnvFromSource, Volume, VolumeMount, ConfigMap,
// PersistentVolumeClaim; apps/v1 Deployment, StatefulSet; batch/v1 Job,
// CronJob).
package kube

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/deploy"
	"github.com/ckptlint/ckptlint/internal/format/flinkyaml"
	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Source is the deploy.Workload Source of plain manifests.
const Source = "kubernetes"

// Manifest is what one manifest file declares.
type Manifest struct {
	Path       string
	Workloads  []deploy.Workload
	ConfigMaps []deploy.ConfigMap
	Claims     []Claim
	// refs are the values Link resolves across files.
	refs []ref
}

// Claim is a PersistentVolumeClaim.
type Claim struct {
	Name, Namespace string
	AccessModes     []string
	Loc             deploy.Loc
}

// ref is a value of a workload that names another object: an env var's
// configMapKeyRef, an envFrom configMapRef, a mount's claim.
type ref struct {
	kind      refKind
	workload  int // index in Workloads
	item      int // index in Env or Mounts
	namespace string
	name, key string
	prefix    string // envFrom prefix
	optional  bool
	loc       deploy.Loc
}

type refKind int

const (
	refEnvKey  refKind = iota // env[item].valueFrom.configMapKeyRef
	refEnvFrom                // envFrom configMapRef, inserted before env[item]
	refClaim                  // mounts[item] is a persistentVolumeClaim
)

// maxDocuments bounds the documents of one file (and the items of its
// Lists): parsed.MaxEntries, the keys a configuration file may have.
const maxDocuments = parsed.MaxEntries

// reader holds the state of one Read.
type reader struct {
	m       *Manifest
	src     []byte
	blocks  *deploy.Blocks
	notes   []string
	aliased int // bytes of scalars reached through aliases
}

// Read reads the Kubernetes objects of one manifest file (every document;
// the items of a List) displayed as path. Objects of other kinds, and
// files that are not Kubernetes manifests, give nothing. What it cannot
// read is a note naming path:line: invalid YAML (the documents before it
// are kept), a file over parsed.MaxFileSize, an alias bomb, a ConfigMap
// value that is not a string.
func Read(path string, src []byte) (m *Manifest, notes []string) {
	m = &Manifest{Path: path}
	r := &reader{m: m, src: src}
	if len(src) > parsed.MaxFileSize {
		return m, []string{fmt.Sprintf("%s: not read: the file is %d bytes, over the %d-byte limit", path, len(src), parsed.MaxFileSize)}
	}
	defer func() {
		// yaml.v3 recovers its own panics; one that escapes (or one of this
		// reader) is a note, never a crash of the run (internal/evidence
		// safeParse).
		if p := recover(); p != nil {
			r.notes = append(r.notes, fmt.Sprintf("%s: not read: the YAML reader failed (%v)", path, p))
			notes = r.notes
		}
	}()
	r.blocks = deploy.NewBlocks(path, src)
	dec := yaml.NewDecoder(bytes.NewReader(src))
	for docs := 0; ; docs++ {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			line, msg := yamlErr(err)
			r.note(line, "not read from here on: invalid YAML: %s", msg)
			break
		}
		if docs >= maxDocuments {
			r.note(doc.Line, "not read from here on: the file has more than %d documents", maxDocuments)
			break
		}
		if len(doc.Content) == 0 {
			continue
		}
		if n := CollectionAliases(&doc, flinkyaml.MaxCollectionAliases); n > flinkyaml.MaxCollectionAliases {
			r.note(doc.Content[0].Line, "document not read: more than %d aliases to mappings or lists (an alias bomb)", flinkyaml.MaxCollectionAliases)
			continue
		}
		r.object(doc.Content[0], 0)
	}
	if r.blocks.Note != "" {
		r.notes = append(r.notes, r.blocks.Note)
	}
	return m, r.notes
}

// note records what could not be read at line (0: the file).
func (r *reader) note(line int, format string, args ...any) {
	at := r.m.Path
	if line > 0 {
		at = fmt.Sprintf("%s:%d", r.m.Path, line)
	}
	r.notes = append(r.notes, at+": "+fmt.Sprintf(format, args...))
}

func (r *reader) loc(n *yaml.Node) deploy.Loc {
	if n == nil {
		return deploy.Loc{File: r.m.Path}
	}
	return deploy.Loc{File: r.m.Path, Line: n.Line}
}

// object reads one Kubernetes object (a document, or an item of a List).
func (r *reader) object(n *yaml.Node, depth int) {
	n = target(n)
	if n.Kind != yaml.MappingNode {
		return
	}
	kindK, kindV := lookup(n, "kind")
	kind := text(kindV)
	api := text(get(n, "apiVersion"))
	meta := get(n, "metadata")
	name := text(get(meta, "name"))
	ns := text(get(meta, "namespace"))
	at := kindK
	if k, _ := lookup(meta, "name"); k != nil {
		at = k
	}
	switch {
	case kind == "List" || strings.HasSuffix(kind, "List") && api == "v1":
		if depth > 0 {
			return
		}
		items := seq(get(n, "items"))
		if len(items) > maxDocuments {
			r.note(kindK.Line, "List not read: more than %d items", maxDocuments)
			return
		}
		for _, it := range items {
			r.object(it, depth+1)
		}
	case kind == "ConfigMap" && api == "v1":
		r.configMap(n, name, ns, at)
	case kind == "PersistentVolumeClaim" && api == "v1":
		r.m.Claims = append(r.m.Claims, Claim{Name: name, Namespace: ns, AccessModes: strs(get(get(n, "spec"), "accessModes")), Loc: r.loc(at)})
	case kind == "FlinkDeployment" && strings.HasPrefix(api, "flink.apache.org/"):
		r.flinkDeployment(n, name, ns, at)
	default:
		spec := get(n, "spec")
		var pod *yaml.Node // the pod template: metadata and spec
		switch kind {
		case "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job":
			pod = get(spec, "template")
		case "CronJob":
			pod = get(get(get(spec, "jobTemplate"), "spec"), "template")
		case "Pod":
			pod = n
		default:
			return
		}
		o := object{kind: kind, name: name, namespace: ns, at: at, meta: meta}
		switch kind {
		case "Deployment", "StatefulSet", "ReplicaSet":
			o.replicasK, o.replicasV = lookup(spec, "replicas")
		case "Job":
			// A Job's pods running at once: Flink's application-mode HA
			// example sets parallelism for standby JobManagers.
			o.replicasK, o.replicasV = lookup(spec, "parallelism")
		}
		if kind == "StatefulSet" {
			o.claimTemplates = seq(get(spec, "volumeClaimTemplates"))
		}
		r.pod(o, pod)
	}
}

// configMap reads a ConfigMap: every data key a Text.
func (r *reader) configMap(n *yaml.Node, name, ns string, at *yaml.Node) {
	cm := deploy.ConfigMap{Name: name, Namespace: ns, Loc: r.loc(at), Data: map[string]*deploy.Text{}}
	data := target(get(n, "data"))
	if data != nil && data.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(data.Content); i += 2 {
			k, v := data.Content[i], data.Content[i+1]
			key := text(k)
			if t := target(v); t.Kind != yaml.ScalarNode || t.Tag == "!!null" {
				r.note(k.Line, "ConfigMap %s key %q not read: its value is a %s, not a string (Kubernetes refuses the ConfigMap)", name, key, kindName(t))
				continue
			} else if t.Tag != "!!str" && t.Tag != "" {
				r.note(k.Line, "ConfigMap %s key %q: %s is not a string; Kubernetes refuses the ConfigMap unless it is quoted", name, key, t.Value)
			}
			if v.Kind == yaml.AliasNode {
				r.aliased += len(target(v).Value)
				if r.aliased > flinkyaml.MaxAliasBytes {
					r.note(k.Line, "ConfigMap %s not read from key %q on: aliases repeat more than %d bytes of text (an alias bomb)", name, key, flinkyaml.MaxAliasBytes)
					break
				}
			}
			cm.Data[key] = r.blocks.Text(key, k, v)
		}
	}
	r.m.ConfigMaps = append(r.m.ConfigMaps, cm)
}

// CollectionAliases counts the aliases to mappings and sequences of a
// document, stopping past limit (also for the kustomization files that
// internal/deploy/render reads).
func CollectionAliases(n *yaml.Node, limit int) int {
	count := 0
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if count > limit {
			return
		}
		if n.Kind == yaml.AliasNode {
			if t := n.Alias; t != nil && (t.Kind == yaml.MappingNode || t.Kind == yaml.SequenceNode) {
				count++
			}
			return
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return count
}
