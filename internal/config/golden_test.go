package config

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// goldenRuleIDs stand in for the policy bundle's rule ids.
var goldenRuleIDs = []string{"CKPT101", "CKPT102", "CKPT201"}

// TestGolden renders Load's and Validate's diagnostics for each
// testdata/<name>.hcl and compares them with testdata/<name>[.color].golden.
func TestGolden(t *testing.T) {
	tests := []struct {
		name  string
		color bool
	}{
		{name: "bad"},
		{name: "bad", color: true},
		{name: "syntax"},
	}
	for _, tt := range tests {
		golden := tt.name
		if tt.color {
			golden += ".color"
		}
		t.Run(golden, func(t *testing.T) {
			// A relative path keeps the temp-free file name in the output.
			cfg, diags := Load(filepath.Join("testdata", tt.name+".hcl"))
			diags.Append(cfg.Validate(goldenRuleIDs)...)
			var got bytes.Buffer
			if err := diags.Write(&got, tt.color); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", golden+".golden")
			if *update {
				if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got.String()); diff != "" {
				t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
			}
		})
	}
}
