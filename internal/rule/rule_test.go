package rule_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/rule"
)

func ids(rs []*rule.Rule) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

// TestAll: the builtin rules first, then the Rego rules, each id once and
// in order, every entry complete.
func TestAll(t *testing.T) {
	all := rule.All()
	got := ids(all)
	if want := []string{"CKPT000", "CKPT001", "CKPT002", "CKPT003", "CKPT004", "CKPT005"}; !slices.Equal(got[:6], want) {
		t.Fatalf("list begins %v, want %v", got[:6], want)
	}
	if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
		t.Errorf("ids not sorted and unique: %v", got)
	}
	if len(all) != len(rule.Builtins())+len(rule.Rego()) {
		t.Errorf("All has %d rules, Builtins+Rego %d", len(all), len(rule.Builtins())+len(rule.Rego()))
	}
	for _, r := range all {
		if r.Name == "" || r.Title == "" || r.Description == "" || r.Severity == 0 || r.Family == "" {
			t.Errorf("%s is incomplete: %+v", r.ID, r)
		}
		if r.Builtin() != (r.Package == "") {
			t.Errorf("%s: builtin %v but package %q", r.ID, r.Builtin(), r.Package)
		}
		if u := r.HelpURI(); !strings.HasPrefix(u, "https://") {
			t.Errorf("%s: HelpURI %q", r.ID, u)
		}
	}
}

// TestCopies: callers may change what they get without changing the list.
func TestCopies(t *testing.T) {
	r := rule.ByID("CKPT001")
	r.Title = "changed"
	r.Related[0] = "changed"
	if again := rule.ByID("ckpt001"); again.Title == "changed" || again.Related[0] == "changed" {
		t.Errorf("ByID returned the list's own entry")
	}
	if rule.ByID("CKPT999") != nil {
		t.Errorf("ByID found a rule that does not exist")
	}
	if r := rule.Find(rule.All(), "unused-ignore"); r == nil || r.ID != "CKPT001" {
		t.Errorf("Find by name = %v", r)
	}
}

// TestWith: user rules are merged in id order; the engine's copies of the
// embedded rules and a user rule reusing an id are not listed twice.
func TestWith(t *testing.T) {
	user := &rule.Rule{ID: "ACME001", Name: "acme", Title: "Acme", User: true, Related: []string{"https://wiki.example.com/acme001"}}
	clash := &rule.Rule{ID: "CKPT101", Name: "clash", User: true}
	engineCopy := rule.ByID("CKPT201")
	got := rule.With([]*rule.Rule{engineCopy, user, clash})
	if n := len(got); n != len(rule.All())+1 {
		t.Fatalf("With has %d rules, want %d", n, len(rule.All())+1)
	}
	list := ids(got)
	n := len(rule.Builtins())
	if !slices.Equal(list[:n], ids(rule.Builtins())) || !slices.IsSorted(list[n:]) {
		t.Errorf("order %v", list)
	}
	acme := rule.Find(got, "ACME001")
	if acme == nil || acme.HelpURI() != "https://wiki.example.com/acme001" {
		t.Errorf("user rule %+v", acme)
	}
	if rule.Find(got, "CKPT101").Name != "blocksize-scheduled-space" {
		t.Errorf("a user rule replaced an embedded one")
	}
}
