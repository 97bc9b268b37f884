package flinkyaml

import (
	"strings"
	"testing"
)

func TestLooksLikeFlink(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want bool
	}{
		{"flat Flink key", "parallelism.default: 4\n", true},
		{"nested Flink key", "execution:\n  checkpointing:\n    interval: 10s\n", true},
		{"high-availability alone", "high-availability: zookeeper\n", true},
		{"env.java nested", "env:\n  java:\n    opts: -Xmx1g\n", true},
		{"io.tmp.dirs", "io.tmp.dirs: /tmp\n", true},
		{"env without java", "env:\n  FOO: bar\n", false},
		{"generic config.yaml", "server:\n  port: 8080\nlogging:\n  level: info\n", false},
		{"empty", "", false},
		{"broken but Flink", "jobmanager:\n  rpc: [\nstate.backend.type: rocksdb\n", true},
		{"duplicate key in a Flink file", "taskmanager.numberOfTaskSlots: 1\ntaskmanager.numberOfTaskSlots: 2\n", true},
		{"broken and generic", "server: [\n", false},
		{"Spring Boot 1.x with one security key", "security:\n  basic:\n    enabled: false\nserver:\n  port: 8080\nspring:\n  datasource:\n    url: jdbc:postgresql://db/app\n    username: app\n  jpa:\n    show-sql: true\n", false},
		{"Flink file with some user keys", "state.backend.type: rocksdb\nexecution.checkpointing.interval: 1 min\nmy.app.setting: 3\n", true},
		{"manifest", "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nspec:\n  flinkConfiguration:\n    state.backend.type: rocksdb\n", false},
		// issue 25: Flink keys beside a few unrelated top-level keys are
		// Flink's file (Flink reads every key; the others are unknown keys)
		{"Flink keys beside kafka and app", "kafka:\n  bootstrap: k:9092\n  topic: t\napp:\n  name: x\ndb:\n  url: y\nexecution:\n  checkpointing:\n    interval: 1 s\nstate:\n  checkpoints:\n    dir: hdfs://nn/ck\n", true},
		{"one taskmanager key among many others", "a: 1\nb: 2\nc: 3\nd: 4\ntaskmanager.numberOfTaskSlots: 4\n", true},
		{"Dropwizard", "server:\n  applicationConnectors:\n    - type: http\n      port: 8080\nlogging:\n  level: INFO\nmetrics:\n  frequency: 1 minute\n  reporters:\n    - type: console\ndatabase:\n  url: jdbc:h2:mem\n", false},
		{"Hugo", "baseURL: https://example.org/\ntitle: Site\nsecurity:\n  exec:\n    allow: ['^go$']\n  funcs:\n    getenv: ['^HUGO_']\nparams:\n  x: 1\nmarkup:\n  goldmark: {}\n", false},
		{"Spring Boot 2 with management metrics", "server:\n  port: 8080\nmanagement:\n  metrics:\n    export:\n      prometheus:\n        enabled: true\nspring:\n  application:\n    name: app\n", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := LooksLikeFlink([]byte(tc.src)); got != tc.want {
				t.Errorf("LooksLikeFlink = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestClassifyMaybeFlink: keys of two or more of Flink's namespaces among
// mostly other keys are neither read nor silent: MaybeFlink, with a reason
// naming them and the others.
func TestClassifyMaybeFlink(t *testing.T) {
	src := "kafka:\n  bootstrap: k:9092\napp:\n  name: x\ndb:\n  url: y\nserver:\n  port: 1\nrest:\n  port: 8081\nmetrics:\n  reporters: prom\n"
	v, why := Classify(ParseConfig("config.yaml", []byte(src)))
	if v != MaybeFlink {
		t.Fatalf("verdict %v, want MaybeFlink", v)
	}
	want := "config.yaml holds keys of Flink's rest and metrics options, but 4 of its 6 top-level names (kafka, app, db and server) are not Flink's"
	if !strings.HasPrefix(why, want) {
		t.Errorf("reason %q, want it to start %q", why, want)
	}
	for _, other := range []string{
		"security:\n  basic:\n    enabled: false\nserver:\n  port: 8080\nspring:\n  datasource:\n    url: jdbc:postgresql://db/app\n", // Spring Boot 1.x
		"server:\n  port: 8080\nlogging:\n  level: info\n",
	} {
		if v, _ := Classify(ParseConfig("config.yaml", []byte(other))); v != NotFlink {
			t.Errorf("verdict %v for %q, want NotFlink", v, other)
		}
	}
}
