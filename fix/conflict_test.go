package fix_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/fix"
	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/lint"
)

// conflictPolicy is a rule that reports the timeout whatever it is, with a
// fix that sets it to VALUE.
const conflictPolicy = `# METADATA
# title: Timeout at VALUE
# description: Wants the timeout at VALUE.
# custom:
#   id: ID
#   name: NAME
#   severity: warning
#   fixable: true
package ckptlint.rules.acme.PKG

import data.ckptlint.lib.result

deny contains f if {
	t := input.effective.checkpointing.timeout
	t.set
	f := result.fix(t, "want VALUE", [result.set("flink", "execution.checkpointing.timeout", "VALUE")])
}
`

// TestFixConflictReported: two fixes that keep wanting different values
// for one key conflict in every round; the one applied second is reported
// not applied, once, saying which fix it conflicts with, and the file holds
// the first one's value.
func TestFixConflictReported(t *testing.T) {
	dir := t.TempDir()
	pol := filepath.Join(dir, "policies", "acme")
	mustMkdir(t, pol)
	for _, r := range []struct{ id, pkg, value string }{{"ACME201", "two_min", "2 min"}, {"ACME202", "three_min", "3 min"}} {
		name := strings.ReplaceAll(r.pkg, "_", "-")
		src := strings.NewReplacer("ID", r.id, "PKG", r.pkg, "NAME", name, "VALUE", r.value).Replace(conflictPolicy)
		mustWrite(t, filepath.Join(pol, r.pkg+".rego"), src)
	}
	work := filepath.Join(dir, "work")
	mustMkdir(t, work)
	mustWrite(t, filepath.Join(work, "flink-conf.yaml"), "state.checkpoints.dir: hdfs://nn/ckpt\nexecution.checkpointing.timeout: 10 min\n")
	t.Chdir(work)
	eng, err := engine.New(context.Background(), engine.Options{PolicyDirs: []string{filepath.Join(dir, "policies")}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := fix.Run(context.Background(), eng, fix.Options{Lint: lint.Options{}, Rules: []string{"ACME201", "ACME202"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changes) != 1 || !strings.Contains(string(res.Changes[0].New), "execution.checkpointing.timeout: 2 min\n") {
		t.Fatalf("changes: %+v", res.Changes)
	}
	if len(res.Skipped) != 1 {
		t.Fatalf("skipped %d operations, want the second fix once: %+v", len(res.Skipped), res.Skipped)
	}
	s := res.Skipped[0]
	if s.Finding.RuleID != "ACME202" || !strings.Contains(s.Reason, "conflicts with the fix of ACME201 (set=2 min execution.checkpointing.timeout) in flink-conf.yaml") ||
		strings.Contains(s.Reason, "run ckptlint fix again") {
		t.Errorf("skipped: %s: %s", s.Finding.RuleID, s.Reason)
	}
}
