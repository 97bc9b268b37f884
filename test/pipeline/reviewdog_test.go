package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// reviewdogModule is the reviewdog the docs/ci.md recipe is tested with,
// built like actionlint from the Go module proxy (not a dependency of the
// ckptlint module).
const reviewdogModule = "github.com/reviewdog/reviewdog/cmd/reviewdog@v0.21.0"

var reviewdog = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "reviewdog-")
	if err != nil {
		return "", err
	}
	r := runQuiet(dir, []string{"GOBIN=" + dir}, "go", "install", reviewdogModule)
	if r.code != 0 {
		return "", &installError{r}
	}
	return filepath.Join(dir, "reviewdog"), nil
})

// TestReviewdogSARIF runs the docs/ci.md recipe
// `ckptlint lint --format sarif | reviewdog -f=sarif ...` with the real
// reviewdog (local reporter): it reads every finding of story (b) from the
// SARIF log and fails on the errors; on the fixed story it passes.
func TestReviewdogSARIF(t *testing.T) {
	if testing.Short() {
		t.Skip("builds reviewdog (-short)")
	}
	rd, err := reviewdog()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("reviewdog could not be built, and CI=true: %v", err)
		}
		t.Skipf("reviewdog could not be built (is the Go module proxy reachable?): %v", err)
	}
	pipe := `"$CKPTLINT" lint --fail-level error --format sarif | "$REVIEWDOG" -f=sarif -name=ckptlint -reporter=local -filter-mode=nofilter -fail-level=error`
	env := []string{"CKPTLINT=" + ckptlint, "REVIEWDOG=" + rd}

	ws := newWorkspace(t, story("stories", "b-directoryscanner"), "")
	want := lintJSON(t, ws)
	r := run(t, ws, env, "bash", "-o", "pipefail", "-c", pipe)
	if r.code != 1 || !strings.Contains(r.stderr, "found at least one issue with severity greater than or equal to the given level: error") {
		t.Fatalf("reviewdog on story b: %v\nwant exit code 1 for its errors", r)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		if strings.Contains(line, `"ruleId":"CKPT`) {
			n++
		}
	}
	if total := want["errors"] + want["warnings"] + want["infos"]; n != total {
		t.Errorf("reviewdog reported %d results, want the %d findings:\n%s", n, total, r.stdout)
	}
	for _, rule := range []string{`"ruleId":"CKPT201"`, `"uri":"flink/flink-conf.yaml"`, `"startLine":10`} {
		if !strings.Contains(r.stdout, rule) {
			t.Errorf("reviewdog output lacks %s:\n%s", rule, r.stdout)
		}
	}

	clean := newWorkspace(t, story("stories-fixed", "b-directoryscanner"), "")
	if r := run(t, clean, env, "bash", "-o", "pipefail", "-c", pipe); r.code != 0 {
		t.Errorf("reviewdog on the fixed story b: %v\nwant exit code 0", r)
	}
}
