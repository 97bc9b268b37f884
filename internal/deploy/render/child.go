package render

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"time"
)

// Why a child process. Go's text/template (Helm's engine) cannot be
// stopped from outside: a `range` over a huge `until` allocates the list
// before the first iteration, nested ranges write output with no function
// call to interrupt, and a goroutine abandoned at a deadline keeps its
// core and its memory. A child process is killed at the deadline, and its
// heap is watched: whatever a template does, the run loses at most
// Limits.Time and Limits.Memory, and reports the chart.

// childArg and childEnv make the executable a renderer: ServeChild, called
// first by main (and by TestMain in tests), serves the request on standard
// input. An executable that does not call it refuses the unknown argument
// and exits, so a request is never mistaken for a run.
const (
	childArg = "__ckptlint-render-child"
	childEnv = "CKPTLINT_RENDER_CHILD"
)

// request is what the parent sends: the files read through Read (the
// child reads nothing else) and what to render.
type request struct {
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

// response is what the child answers.
type response struct {
	Docs  []Doc    `json:"docs"`
	Notes []string `json:"notes,omitempty"`
	Err   string   `json:"err,omitempty"`
}

// Executable is the program run as the renderer; os.Executable when "".
var Executable = ""

// isolate runs req in a child process within req.Limits.
func isolate(req request) (*Output, error) {
	exe := Executable
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return nil, &Error{What: req.What, Err: "cannot start the renderer: " + err.Error()}
		}
	}
	in, err := json.Marshal(req)
	if err != nil {
		return nil, &Error{What: req.What, Err: err.Error()}
	}
	ctx, cancel := context.WithTimeout(context.Background(), req.Limits.Time)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, childArg) // #nosec G204 -- the running executable itself
	// Nothing of the environment: no credentials, no proxy, no kubeconfig
	// reach the renderer (Windows needs SYSTEMROOT to start a Go program).
	cmd.Env = []string{childEnv + "=1"}
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
	var resp response
	if err := json.Unmarshal(stdout.Bytes(), &resp); err != nil {
		return nil, &Error{What: req.What, Err: fmt.Sprintf("the renderer gave no answer (does %s call render.ServeChild first?)", exe)}
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

// ServeChild serves a rendering request when the process was started as
// the renderer, and then exits; otherwise it returns at once. main calls
// it first, before anything else runs.
func ServeChild() {
	if os.Getenv(childEnv) != "1" || len(os.Args) != 2 || os.Args[1] != childArg {
		return
	}
	os.Exit(serve(os.Stdin, os.Stdout, os.Stderr))
}

func serve(stdin io.Reader, stdout, stderr io.Writer) int {
	in, err := io.ReadAll(io.LimitReader(stdin, 1<<30))
	if err != nil {
		_, _ = fmt.Fprintln(stderr, err)
		return 2
	}
	var req request
	if err := json.Unmarshal(in, &req); err != nil {
		_, _ = fmt.Fprintln(stderr, "bad request:", err)
		return 2
	}
	watchMemory(req.Limits.Memory, stderr)
	out, err := renderRequest(req)
	var resp response
	if err != nil {
		resp.Err = err.Error()
		var re *Error
		if errors.As(err, &re) {
			resp.Err = re.Err
		}
	} else {
		resp.Docs, resp.Notes = out.Docs, out.Notes
	}
	if err := json.NewEncoder(stdout).Encode(resp); err != nil {
		_, _ = fmt.Fprintln(stderr, err)
		return 2
	}
	return 0
}

// renderRequest renders, a panic of a library included.
func renderRequest(req request) (out *Output, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, &Error{What: req.What, Err: fmt.Sprintf("the renderer failed (%v)", p)}
		}
	}()
	switch req.Kind {
	case "helm":
		return renderHelm(req)
	case "kustomize":
		return buildKustomize(req)
	}
	return nil, fmt.Errorf("unknown request %q", req.Kind)
}

// watchMemory ends the child when its heap passes limit: the garbage
// collector is told the limit too, and a goroutine reads the heap every
// 10 ms (runtime/metrics, no stop of the world).
func watchMemory(limit int64, stderr io.Writer) {
	if limit <= 0 {
		return
	}
	debug.SetMemoryLimit(limit)
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	go func() {
		for range time.Tick(10 * time.Millisecond) {
			metrics.Read(sample)
			if v := sample[0].Value; v.Kind() == metrics.KindUint64 && v.Uint64() > uint64(limit) { //nolint:gosec // limit > 0: returned above otherwise
				_, _ = fmt.Fprintf(stderr, "rendering used more than %d MiB of memory and was stopped (a template that loops?)\n", limit>>20)
				os.Exit(3)
			}
		}
	}()
}
