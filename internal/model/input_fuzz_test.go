package model

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/ckptlint/ckptlint/internal/format/flinkconf"
	"github.com/ckptlint/ckptlint/internal/format/flinkyaml"
	"github.com/ckptlint/ckptlint/internal/format/hadoopxml"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/template"
)

// FuzzInputMatchesMaps: on a set of any Flink file (flink-conf.yaml or
// config.yaml), hdfs-site.xml and Flink version, Input builds the document
// the Go maps converted by ast.InterfaceToValue built (input_oracle_test.go).
func FuzzInputMatchesMaps(f *testing.F) {
	f.Add([]byte("execution.checkpointing.interval: 10 min\nstate.checkpoints.dir: hdfs:///ckpt\nflink.hadoop.dfs.replication: 2\n"),
		[]byte("<configuration><property><name>dfs.replication</name><value>1</value><final>true</final></property></configuration>"),
		"1.17", false)
	f.Add([]byte("execution:\n  checkpointing:\n    interval: 1.0\n    min-pause: 30 s\nstate.backend.incremantal: true\n"),
		[]byte("<configuration><property><name>dfs.blocksize</name><value>128m</value></property></configuration>"),
		"1.19", true)
	f.Add([]byte("execution.checkpointing.interval: ${INTERVAL}\ntaskmanager.memory.process.size: 1.5g\n"),
		[]byte("<configuration><property><name>dfs.client.socket-timeout</name><value>-1</value></property>"),
		"1.9", false)
	f.Fuzz(func(t *testing.T, flinkSrc, hdfsSrc []byte, version string, yaml bool) {
		var fl *parsed.File
		if yaml {
			fl = flinkyaml.ParseConfig("config.yaml", flinkSrc)
		} else {
			fl = flinkconf.Parse("flink-conf.yaml", flinkSrc)
		}
		template.MarkEntries(fl, template.For(fl.Format))
		s := &Set{Name: "fuzz", Flink: fl, Client: []Resource{{
			File: hadoopxml.Parse("hdfs-site.xml", hdfsSrc, hadoopxml.Options{}), Via: "same-dir", Dir: ".",
		}}}
		if v, err := ParseVersion(version); err == nil {
			s.FlinkVersion = Resolved{Version: v, Source: "config", Where: "fuzz"}
		}
		got, err := Input(s)
		if err != nil {
			t.Fatal(err)
		}
		want, err := InputMaps(s)
		if err != nil {
			t.Fatal(err)
		}
		if ast.Compare(got, want) != 0 || got.String() != want.String() {
			t.Errorf("Input differs from the maps' document:\n got %s\nwant %s", got, want)
		}
	})
}
