package render

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/ckptlint/ckptlint/internal/buildinfo"
)

// Why a child process. Go's text/template (Helm's engine) cannot be
// stopped from outside: a `range` over a huge `until` allocates the list
// before the first iteration, nested ranges write output with no function
// call to interrupt, and a goroutine abandoned at a deadline keeps its
// core and its memory. A child process is killed at the deadline, and its
// heap is watched: whatever a template does, the run loses at most
// Limits.Time and Limits.Memory, and reports the chart.

// The renderer is its own executable, ckptlint-render (cmd/ckptlint-render,
// package renderer): Helm's and Kustomize's libraries are linked there
// only, so a lint run that renders nothing starts, and stays, as small as
// ckptlint without them (docs/performance.md, "What Helm and Kustomize
// cost"). The two speak JSON over the child's standard input and output:
// a Request, then a Response.

// ChildArg and ChildEnv are how a renderer knows it was started by
// ckptlint: it serves a Request only when both are given, and otherwise
// says what it is and exits, so a request is never mistaken for a run.
const (
	ChildArg = "__ckptlint-render-child"
	ChildEnv = "CKPTLINT_RENDER_CHILD"
)

// Protocol is the version of Request and Response. A renderer of another
// release answers with an error naming both, never a wrong rendering.
const Protocol = 1

// Request is what the parent sends: the files read through Read (the
// child reads nothing else) and what to render.
type Request struct {
	Protocol  int               `json:"protocol"`
	Kind      string            `json:"kind"` // "helm" or "kustomize"
	What      string            `json:"what"`
	Dir       string            `json:"dir"`
	Values    []string          `json:"values,omitempty"`
	Release   string            `json:"release,omitempty"`
	Namespace string            `json:"namespace,omitempty"`
	Files     map[string][]byte `json:"files"`
	// Drop are a kustomization's remote entries, by its display path.
	Drop   map[string][]string `json:"drop,omitempty"`
	Limits Limits              `json:"limits"`
}

// Response is what the child answers.
type Response struct {
	Docs  []Doc    `json:"docs"`
	Notes []string `json:"notes,omitempty"`
	Err   string   `json:"err,omitempty"`
}

// Name is the renderer's executable name (".exe" added on Windows).
const Name = "ckptlint-render"

// Executable is the program run as the renderer. "" finds Name beside the
// running executable (a release archive, `go install ./cmd/...`), then on
// PATH. Tests set it to their own binary, which serves requests
// (renderer.ServeChild in TestMain).
var Executable = ""

// locate is the renderer to run, or why there is none.
func locate() (string, error) {
	if Executable != "" {
		return Executable, nil
	}
	name := Name
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%s, the renderer of Helm charts and kustomizations, is not installed beside ckptlint or on PATH "+
		"(it comes in the release archive; from a clone: go install ./cmd/...)", name)
}

// Identity names the renderer a run would start, for the key of the
// result cache (docs/cache.md, "What a result depends on"): what a run
// lints of a chart or kustomization depends on it, so a run without a
// renderer ("not rendered") or with another build is not replayed once
// one is installed or replaced. "none" when there is none; else its
// content as buildinfo.ContentOf names ckptlint's own (the Go build ID, a
// read of 32 KiB), or, when it cannot be read, its path, size and
// modification time.
func Identity() string {
	exe, err := locate()
	if err != nil {
		return "none"
	}
	if c := buildinfo.ContentOf(exe); c != "" {
		return c
	}
	st, err := os.Stat(exe)
	if err != nil {
		return "unreadable:" + exe
	}
	return fmt.Sprintf("file:%s:%d:%d", exe, st.Size(), st.ModTime().UnixNano())
}

// isolate runs req in a child process within req.Limits.
func isolate(req Request) (*Output, error) {
	exe, err := locate()
	if err != nil {
		return nil, &Error{What: req.What, Err: err.Error()}
	}
	req.Protocol = Protocol
	in, err := json.Marshal(req)
	if err != nil {
		return nil, &Error{What: req.What, Err: err.Error()}
	}
	ctx, cancel := context.WithTimeout(context.Background(), req.Limits.Time)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, ChildArg) // #nosec G204 -- ckptlint's own renderer (locate)
	// Nothing of the environment: no credentials, no proxy, no kubeconfig
	// reach the renderer (Windows needs SYSTEMROOT to start a Go program).
	cmd.Env = []string{ChildEnv + "=1"}
	if v, ok := os.LookupEnv("SYSTEMROOT"); ok {
		cmd.Env = append(cmd.Env, "SYSTEMROOT="+v)
	}
	cmd.Dir = os.TempDir()
	cmd.Stdin = bytes.NewReader(in)
	// The answer holds the documents (Output bytes, escaped in JSON at
	// most six times over) and the notes.
	stdout := &capped{max: 6*req.Limits.Output + 1<<20}
	stderr := &capped{max: 4 << 10}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	start := time.Now()
	runErr := cmd.Run()
	switch {
	case ctx.Err() != nil:
		return nil, &Error{What: req.What, Err: fmt.Sprintf("rendering took longer than %v and was stopped (a template that loops or recurses?)", req.Limits.Time)}
	case stdout.over:
		return nil, &Error{What: req.What, Err: fmt.Sprintf("the rendered output is over %d bytes", req.Limits.Output)}
	case runErr != nil:
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = runErr.Error()
		}
		return nil, &Error{What: req.What, Err: fmt.Sprintf("the renderer failed after %v: %s", time.Since(start).Round(time.Millisecond), msg)}
	}
	var resp Response
	if err := json.Unmarshal(stdout.Bytes(), &resp); err != nil {
		return nil, &Error{What: req.What, Err: fmt.Sprintf("the renderer gave no answer (is %s ckptlint's renderer?)", exe)}
	}
	if resp.Err != "" {
		return nil, &Error{What: req.What, Err: resp.Err}
	}
	src := "helm"
	if req.Kind == "kustomize" {
		src = "kustomize"
	}
	return &Output{What: req.What, Source: src, Docs: resp.Docs, Files: req.Files, Notes: resp.Notes}, nil
}

// capped is a buffer that keeps at most max bytes and then fails the
// write, which stops the child's output.
type capped struct {
	bytes.Buffer
	max  int
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	if c.Len()+len(p) > c.max {
		c.over = true
		return 0, errors.New("output over its limit")
	}
	return c.Buffer.Write(p)
}
