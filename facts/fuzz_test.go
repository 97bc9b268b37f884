package facts

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: no input makes a parser panic, and whatever parses can be
// written into an empty file and a small existing one.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.*")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil && len(data) < 64<<10 {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"beans":[{"name":"Hadoop:service=NameNode,name=NameNodeInfo","LiveNodes":"{\"a:1\":{\"adminState\":\"In Service\",\"remaining\":1e30,\"numBlocks\":-5,\"version\":\"x\"}}"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := Parse("fuzz", data)
		if err != nil {
			return
		}
		target := Target{Cluster: "c", Deployment: "d", JobID: "j"}
		if _, err := Apply(nil, "f.hcl", []*Observation{o}, Target{Cluster: "c"}, testNow); err != nil && len(o.Deployment)+len(o.Running) == 0 {
			t.Fatalf("apply to an empty file: %v", err)
		}
		src := []byte("cluster \"c\" {\n  datanodes = 1 # x\n}\ndeployment \"d\" {\n  flink_conf = \"f\"\n  checkpoint_p99 = \"1s\"\n}\n")
		if _, err := Apply(src, "f.hcl", []*Observation{o}, target, testNow); err != nil {
			t.Fatalf("apply: %v", err)
		}
	})
}
