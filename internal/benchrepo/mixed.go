package benchrepo

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteMixed creates n config sets of a second shape, the one issue 26
// measured apart from Write's: every other set a legacy flink-conf.yaml,
// the others a nested config.yaml (Flink 1.19 and later) in a deeper
// directory (svc*/env*/job-*/flink), each with several findings
// (deprecated keys, a timeout no longer than the interval, no tolerated
// failures, a NameNode after three slashes, 128 MiB blocks on HDFS) and
// its hdfs-site.xml; no .ckptlint.hcl, so the versions stay unknown.
func WriteMixed(root string, n int) error {
	for i := range n {
		dir := filepath.Join(root, "svc"+fmt.Sprint(i%25), "env"+fmt.Sprint(i%3), fmt.Sprintf("job-%04d", i), "flink")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		files := map[string]string{
			"hdfs-site.xml": fmt.Sprintf("<?xml version=\"1.0\"?>\n<configuration>\n  <property>\n    <name>dfs.blocksize</name>\n    <value>%s</value>\n  </property>\n  <property>\n    <name>dfs.replication</name>\n    <value>%d</value>\n  </property>\n  <property>\n    <name>dfs.client.socket-timeout</name>\n    <value>10000</value>\n  </property>\n</configuration>\n",
				[]string{"128m", "134217728", "64m", "1m"}[i%4], 1+i%3),
		}
		if i%2 == 0 {
			files["flink-conf.yaml"] = fmt.Sprintf(`# job %d (legacy file)
jobmanager.rpc.address: jm-%d
taskmanager.numberOfTaskSlots: 2
parallelism.default: %d
state.backend: rocksdb
state.checkpoints.dir: hdfs://nn:8020/flink/checkpoints/job-%d
execution.checkpointing.interval: %ds
execution.checkpointing.timeout: %ds
execution.checkpointing.max-concurrent-checkpoints: 2
execution.checkpointing.tolerable-failed-checkpoints: 0
state.checkpoints.num-retained: 1
`, i, i, 50+i%200, i, 10+i%20, 10+i%5)
		} else {
			files["config.yaml"] = fmt.Sprintf(`# job %d (nested, Flink 1.19+)
jobmanager:
  rpc:
    address: jm-%d
taskmanager:
  numberOfTaskSlots: 4
parallelism:
  default: %d
state:
  backend:
    type: rocksdb
    incremental: false
execution:
  checkpointing:
    interval: %d s
    timeout: %d s
    dir: hdfs:///nn:8020/flink/checkpoints/job-%d
    min-pause: 0 ms
`, i, i, 20+i%100, 30+i%30, 20+i%10, i)
		}
		for name, body := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
