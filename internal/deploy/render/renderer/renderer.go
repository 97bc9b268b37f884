// Package renderer is ckptlint-render, the child process that renders
// Helm charts and Kustomize overlays for ckptlint (package render, the
// parent side, says what and why): Helm's chart loader and engine and
// Kustomize's krusty are linked here and nowhere else, so ckptlint's own
// executable stays without them.
//
// It reads one render.Request on standard input, renders it over the files
// the request holds (nothing else is read: no disk, no network, no
// cluster), and writes one render.Response. Its heap is bounded by the
// request's Limits.Memory (watchMemory); the parent bounds its time and
// output.
package renderer

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/ckptlint/ckptlint/internal/deploy/render"
)

// Main is ckptlint-render's main: it serves the request ckptlint sends,
// and otherwise says what it is (exit 2).
func Main() int {
	if child() {
		return serve(os.Stdin, os.Stdout, os.Stderr)
	}
	_, _ = fmt.Fprintf(os.Stderr, "%s renders Helm charts and kustomizations for ckptlint, which starts it; it is not run by hand\n", render.Name)
	return 2
}

// ServeChild serves a request when the process was started as the
// renderer, and then exits; otherwise it returns at once. Test binaries
// call it first in TestMain and set render.Executable to themselves, so
// the charts their tests lint render as ckptlint's do.
func ServeChild() {
	if child() {
		os.Exit(serve(os.Stdin, os.Stdout, os.Stderr))
	}
}

func child() bool {
	return os.Getenv(render.ChildEnv) == "1" && len(os.Args) == 2 && os.Args[1] == render.ChildArg
}

func serve(stdin io.Reader, stdout, stderr io.Writer) int {
	in, err := io.ReadAll(io.LimitReader(stdin, 1<<30))
	if err != nil {
		_, _ = fmt.Fprintln(stderr, err)
		return 2
	}
	var req render.Request
	if err := json.Unmarshal(in, &req); err != nil {
		_, _ = fmt.Fprintln(stderr, "bad request:", err)
		return 2
	}
	if req.Protocol != render.Protocol {
		_, _ = fmt.Fprintf(stderr, "%s speaks protocol %d and ckptlint sent %d: install the two from one release\n", render.Name, render.Protocol, req.Protocol)
		return 2
	}
	watchMemory(req.Limits.Memory, stderr)
	out, err := renderRequest(req)
	var resp render.Response
	if err != nil {
		resp.Err = err.Error()
		var re *render.Error
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
func renderRequest(req render.Request) (out *render.Output, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, &render.Error{What: req.What, Err: fmt.Sprintf("the renderer failed (%v)", p)}
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
