// Package benchrepo writes a generated monorepo of Flink config sets, the
// input of ckptlint's benchmarks: `go test ./lint -bench .` and, for
// whole-process timings, `go run ./internal/benchrepo/gen.go DIR`.
package benchrepo

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write creates n config sets (flink-conf.yaml, core-site.xml and
// hdfs-site.xml each, in team*/job-*/conf) and a .ckptlint.hcl with one
// cluster under root.
func Write(root string, n int) error {
	hcl := "cluster \"prod\" {\n  datanodes = 12\n  datanode_free_bytes = \"4t\"\n}\n"
	if err := os.WriteFile(filepath.Join(root, ".ckptlint.hcl"), []byte(hcl), 0o644); err != nil {
		return err
	}
	for i := range n {
		dir := filepath.Join(root, "team"+fmt.Sprint(i%20), fmt.Sprintf("job-%04d", i), "conf")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		files := map[string]string{
			"flink-conf.yaml": fmt.Sprintf(`# job %d
jobmanager.rpc.address: jm-%d
taskmanager.numberOfTaskSlots: 4
parallelism.default: %d
state.backend.type: rocksdb
state.backend.incremental: true
state.checkpoints.dir: hdfs://nn:8020/flink/checkpoints/job-%d
execution.checkpointing.interval: %d s
execution.checkpointing.timeout: 10 min
execution.checkpointing.min-pause: 30 s
execution.checkpointing.tolerable-failed-checkpoints: 3
restart-strategy.type: exponential-delay
`, i, i, 1+i%64, i, 30+i%90),
			"core-site.xml": "<?xml version=\"1.0\"?>\n<configuration>\n  <property>\n    <name>fs.defaultFS</name>\n    <value>hdfs://nn:8020</value>\n  </property>\n</configuration>\n",
			"hdfs-site.xml": fmt.Sprintf("<?xml version=\"1.0\"?>\n<configuration>\n  <property>\n    <name>dfs.blocksize</name>\n    <value>%dm</value>\n  </property>\n  <property>\n    <name>dfs.replication</name>\n    <value>3</value>\n  </property>\n</configuration>\n", 1+i%4),
		}
		for name, body := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
