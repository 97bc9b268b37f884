package main

import (
	"context"
	"testing"

	"github.com/ckptlint/ckptlint/lint/engine"
	"github.com/ckptlint/ckptlint/lint/logs"
)

// TestLogPatternsNameRealRules keeps explain --log and the rule catalogue in
// step: every rule a log pattern points to exists.
func TestLogPatternsNameRealRules(t *testing.T) {
	eng, err := engine.New(context.Background(), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range logs.Patterns() {
		if len(p.Rules) == 0 {
			t.Errorf("pattern %s names no rule", p.ID)
		}
		for _, id := range p.Rules {
			if eng.Rule(id) == nil {
				t.Errorf("pattern %s names %s, which is not a rule", p.ID, id)
			}
		}
	}
}
