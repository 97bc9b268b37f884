package kube

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// TestHostile: what an attacker writes in a pull request stays bounded and
// ends in a note naming file and line, never a panic or a silent skip.
func TestHostile(t *testing.T) {
	aliasBomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 'b'; i <= 'z'; i++ {
		aliasBomb += fmt.Sprintf("%c: &%c [*%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	big := "x: |\n  " + strings.Repeat("y", 1<<16) + "\n"
	scalarAliases := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  a: &big \"" + strings.Repeat("z", 1<<16) + "\"\n"
	for i := range 40 {
		scalarAliases += fmt.Sprintf("  k%d: *big\n", i)
	}
	for _, tc := range []struct {
		name, src, note string
	}{
		{"invalid YAML names its line", "apiVersion: v1\nkind: ConfigMap\ndata:\n  a: [\n", "x.yaml:4: not read from here on: invalid YAML"},
		{"alias bomb", aliasBomb, "x.yaml:1: document not read: more than 50 aliases to mappings or lists"},
		{"scalar aliases", scalarAliases, "x.yaml:22: ConfigMap c not read from key \"k16\" on: aliases repeat more than 1048576 bytes"},
		{"too many documents", strings.Repeat("---\na: 1\n", parsed.MaxEntries+1), "not read from here on: the file has more than 10000 documents"},
		{"over the size limit", strings.Repeat(big, parsed.MaxFileSize/len(big)+1), "x.yaml: not read: the file is"},
		{"a ConfigMap value that is a list", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  a: [1]\n", "x.yaml:5: ConfigMap c key \"a\" not read: its value is a list"},
		{"NUL bytes", "apiVersion: v1\x00\nkind: ConfigMap\n", "invalid YAML"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, notes := Read("x.yaml", []byte(tc.src))
			if len(notes) != 1 || !strings.Contains(notes[0], tc.note) {
				t.Errorf("notes %q, want one containing %q", notes, tc.note)
			}
		})
	}
}

// FuzzRead: Read and Link never panic, and every Exact Text lies in the
// file at its offsets.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  flink-conf.yaml: |\n    a: 1\n",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: 2\n  template:\n    metadata: {labels: {app: flink, component: taskmanager}}\n    spec:\n      containers:\n      - name: tm\n        image: flink:1.19\n        env:\n        - {name: A, valueFrom: {configMapKeyRef: {name: c, key: k}}}\n        volumeMounts: [{name: v, mountPath: /x}]\n      volumes: [{name: v, persistentVolumeClaim: {claimName: p}}]\n",
		"kind: List\napiVersion: v1\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, env: [{name: FLINK_PROPERTIES, value: \"a: $(B)\"}]}]}}\n",
		"apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {name: f}\nspec:\n  podTemplate: &p {spec: {containers: [{name: flink-main-container}]}}\n  jobManager: {podTemplate: *p}\n",
		"data:\n  a: |2-\n     x\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, _ := Read("f.yaml", src)
		Link([]*Manifest{m})
		for _, cm := range m.ConfigMaps {
			for k, txt := range cm.Data {
				if txt.Exact && (txt.End > len(src) || txt.Start > txt.End || !bytes.Equal(txt.Src[txt.Start:], src[txt.Start:txt.End]) || len(txt.Src) != txt.End) {
					t.Fatalf("key %q: Exact text [%d:%d] does not lie in the file", k, txt.Start, txt.End)
				}
			}
		}
	})
}
