package flinkyaml

import "testing"

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
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := LooksLikeFlink([]byte(tc.src)); got != tc.want {
				t.Errorf("LooksLikeFlink = %v, want %v", got, tc.want)
			}
		})
	}
}
