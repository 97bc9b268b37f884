package pipeline

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// runnerCmd is a workflow command the Actions runner would act on.
type runnerCmd struct {
	name, data string
	line       string
}

// registered are the commands the runner acts on (actions/runner
// ActionCommandManager: its command extensions, plus stop-commands).
var registered = map[string]bool{
	"set-env": true, "set-output": true, "save-state": true, "add-mask": true, "add-path": true,
	"add-matcher": true, "remove-matcher": true, "debug": true, "warning": true, "error": true,
	"notice": true, "group": true, "endgroup": true, "echo": true, "stop-commands": true,
}

var v2RE = regexp.MustCompile(`^::([A-Za-z0-9_-]+)(?: [^:]*)?::(.*)$`)

// runnerCommands reads a step's output stream as the runner does
// (ActionCommandManager.TryProcessCommand): a line ends at \n or a lone
// \r; "::cmd props::data" counts at its start after white space
// (TryParseV2), "##[cmd props]data" anywhere in it (TryParse, tried
// second); after ::stop-commands::TOKEN nothing counts but ::TOKEN::. It
// returns the commands acted on and whether the stream ends with commands
// stopped.
func runnerCommands(out string) (cmds []runnerCmd, stopped bool) {
	token := ""
	for _, line := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
		var name, data string
		if m := v2RE.FindStringSubmatch(strings.TrimLeftFunc(line, unicode.IsSpace)); m != nil &&
			(registered[strings.ToLower(m[1])] || (stopped && strings.EqualFold(m[1], token))) {
			name, data = strings.ToLower(m[1]), m[2]
		} else if i := strings.Index(line, "##["); i >= 0 {
			j := strings.IndexByte(line[i:], ']')
			if j < 0 {
				continue
			}
			info := line[i+3 : i+j]
			name, _, _ = strings.Cut(info, " ")
			name, data = strings.ToLower(name), line[i+j+1:]
			if !registered[name] && !(stopped && strings.EqualFold(name, token)) {
				continue
			}
		} else {
			continue
		}
		if stopped {
			if strings.EqualFold(name, token) {
				stopped, token = false, ""
			}
			continue
		}
		if name == "stop-commands" {
			stopped, token = true, data
		}
		cmds = append(cmds, runnerCmd{name: name, data: data, line: line})
	}
	return cmds, stopped
}

// hostileDir is a directory name a pull request commits: a workflow
// command after a newline, and Markdown meant to leave the summary table.
const hostileDir = "x\n::error file=evil.yaml::all checks passed\n##[add-mask]ckptlint\n<img src=x onerror=alert(1)> **all checks passed**"

// TestActionHostileNames runs the action on a repository whose directory
// names and file contents attack the step log and the job summary (issue
// 25, high 3 and the Markdown medium): the log holds no command but the
// action's own annotations and the fence around ckptlint's standard error,
// the summary's table keeps one row per finding, and a line of three
// backticks in a configuration file does not close the fix-diff fence.
func TestActionHostileNames(t *testing.T) {
	ws := t.TempDir()
	dir := filepath.Join(ws, hostileDir)
	for name, body := range map[string]string{
		"flink-conf.yaml": "execution.checkpointing.interval: 1 min\n```\nexecution.checkpointing.timeout: 1 s\nstate.checkpoints.dir: hdfs:///x\n",
		// A directory named like a configuration file: a note on stderr.
		"conf/hdfs-site.xml/README": "not a file\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitCommitAll(t, ws)
	want := lintJSON(t, ws)
	// show-level info: every finding, infos included, is an annotation.
	r, code := runAction(t, ws, map[string]string{"fix-diff": "true", "fail-level": "warning", "show-level": "info"})
	if code != 1 {
		t.Fatalf("exit code %d, want 1\n%s\n%s", code, r.stdout.String(), r.stderr.String())
	}
	checkCounts(t, r, want)

	// The log: stdout holds the annotations, one per finding, each on the
	// file ckptlint names; stderr holds ckptlint's notes inside a
	// stop-commands fence the action closes.
	cmds, stopped := runnerCommands(r.stdout.String())
	if stopped {
		t.Errorf("the step's stdout ends with workflow commands stopped:\n%s", r.stdout.String())
	}
	annotations := 0
	for _, c := range cmds {
		switch {
		case (c.name == "error" || c.name == "warning" || c.name == "notice") && strings.HasPrefix(strings.TrimSpace(c.line), "::"+c.name+" file=x%0A"):
			annotations++
		default:
			t.Errorf("stdout: the runner acts on %q (%s)", c.line, c.name)
		}
	}
	if n := want["errors"] + want["warnings"] + want["infos"]; annotations != n {
		t.Errorf("%d annotations on the hostile directory's file, want %d:\n%s", annotations, n, r.stdout.String())
	}
	errCmds, stopped := runnerCommands(r.stderr.String())
	if stopped {
		t.Errorf("the step's stderr ends with workflow commands stopped:\n%s", r.stderr.String())
	}
	if len(errCmds) != 1 || errCmds[0].name != "stop-commands" || !regexp.MustCompile(`^[0-9a-f]{32,}$`).MatchString(errCmds[0].data) {
		t.Errorf("stderr: want one stop-commands fence with a random token, the runner acts on %v:\n%s", errCmds, r.stderr.String())
	}
	if !strings.Contains(r.stderr.String(), `ckptlint: note: "x\n::error file=evil.yaml::all checks passed\n##\x5badd-mask]ckptlint\n<img src=x onerror=alert(1)> **all checks passed**/conf/hdfs-site.xml": a directory named like a configuration file`) {
		t.Errorf("ckptlint's note with the quoted name is not in the step log:\n%s", r.stderr.String())
	}

	// The summary: one table row per finding, and the diff fenced by more
	// backticks than any run in it.
	added := checkSummary(t, r, "### What `ckptlint fix` would change")
	rows := 0
	for _, line := range strings.Split(added, "\n") {
		if strings.HasPrefix(line, "| `") {
			rows++
		}
		if strings.HasPrefix(line, "<img") || strings.HasPrefix(line, "::") {
			t.Errorf("the summary has a line of its own from a name: %q", line)
		}
	}
	if n := want["errors"] + want["warnings"] + want["infos"]; rows != n {
		t.Errorf("%d rows in the summary table, want %d:\n%s", rows, n, added)
	}
	diff := run(t, ws, nil, ckptlint, "fix", "--diff")
	if diff.code != 1 || !strings.Contains(diff.stdout, "\n ```\n") {
		t.Fatalf("ckptlint fix --diff: want a diff holding the ``` line: %v", diff)
	}
	open := regexp.MustCompile("(?m)^(`{3,})diff$").FindStringSubmatchIndex(added)
	if open == nil {
		t.Fatalf("no diff fence in the summary:\n%s", added)
	}
	fence := added[open[2]:open[3]]
	body := added[open[1]+1:]
	closeRE := regexp.MustCompile("(?m)^ {0,3}`{" + strconv.Itoa(len(fence)) + ",}[ \t]*$")
	end := closeRE.FindStringIndex(body)
	if end == nil || body[:end[0]] != diff.stdout {
		t.Errorf("the %s fence does not hold exactly the diff:\n%s", fence, added)
	}
}
