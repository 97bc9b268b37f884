package lint_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ckptlint/ckptlint/lint"
	"github.com/ckptlint/ckptlint/lint/config"
	"github.com/ckptlint/ckptlint/lint/engine"
)

// benchRepo writes a monorepo of n config sets (flink-conf.yaml,
// core-site.xml, hdfs-site.xml each) and a .ckptlint.hcl with one cluster.
func benchRepo(b *testing.B, n int) string {
	b.Helper()
	root := b.TempDir()
	hcl := "cluster \"prod\" {\n  datanodes = 12\n  datanode_free_bytes = \"4t\"\n}\n"
	if err := os.WriteFile(filepath.Join(root, ".ckptlint.hcl"), []byte(hcl), 0o644); err != nil {
		b.Fatal(err)
	}
	for i := range n {
		dir := filepath.Join(root, "team"+fmt.Sprint(i%20), fmt.Sprintf("job-%04d", i), "conf")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
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
				b.Fatal(err)
			}
		}
	}
	return root
}

func benchConfig(b *testing.B, root string) *config.Config {
	cfg, diags := config.Load(filepath.Join(root, ".ckptlint.hcl"))
	if diags.HasErrors() {
		b.Fatal(diags.Err())
	}
	return cfg
}

// BenchmarkLint1000 is the whole pipeline on 1,000 config sets: walk, read,
// parse, model, one policy evaluation per set. Report sets/s.
func BenchmarkLint1000(b *testing.B) {
	root := benchRepo(b, 1000)
	b.Chdir(root)
	cfg := benchConfig(b, root)
	eng, err := engine.New(context.Background(), engine.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		res, err := lint.Lint(context.Background(), eng, nil, lint.Options{Config: cfg})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Sets) != 1000 {
			b.Fatalf("%d sets", len(res.Sets))
		}
	}
	b.ReportMetric(1000*float64(b.N)/b.Elapsed().Seconds(), "sets/s")
}

// BenchmarkParseOnly1000 is the floor: walk, read and parse the same files
// and group them into sets, without building inputs or evaluating policies.
func BenchmarkParseOnly1000(b *testing.B) {
	root := benchRepo(b, 1000)
	b.Chdir(root)
	cfg := benchConfig(b, root)
	for b.Loop() {
		sets, _, err := lint.Discover(nil, lint.Options{Config: cfg})
		if err != nil {
			b.Fatal(err)
		}
		if len(sets) != 1000 {
			b.Fatalf("%d sets", len(sets))
		}
	}
	b.ReportMetric(1000*float64(b.N)/b.Elapsed().Seconds(), "sets/s")
}

// BenchmarkEngineNew is the one-time cost per process: parse, check and
// compile every policy and prepare the query.
func BenchmarkEngineNew(b *testing.B) {
	for b.Loop() {
		if _, err := engine.New(context.Background(), engine.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
