package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/ckptlint/ckptlint/internal/deploy/render"
	"github.com/ckptlint/ckptlint/internal/deploy/render/renderer"
	"github.com/ckptlint/ckptlint/internal/testhook"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script/*.txtar")

func TestMain(m *testing.M) {
	// The test binary renders the charts its in-process runs lint; the
	// scripts' ckptlint finds the scripts' ckptlint-render beside it, as
	// an installed ckptlint does (render.Executable "").
	renderer.ServeChild()
	if self, err := os.Executable(); err == nil {
		render.Executable = self
	}
	// The test binary, in process and as the ckptlint of the scripts and
	// subprocesses, reads the failure-injection variables (internal/testhook).
	testhook.Enable()
	// The tests never touch the user's result cache: every ckptlint run in
	// this package, in process or a subprocess, uses one under the system's
	// temporary directory (bounded like any cache; its entries check
	// themselves, so runs of the tests may share it).
	if os.Getenv("CKPTLINT_CACHE_DIR") == "" {
		_ = os.Setenv("CKPTLINT_CACHE_DIR", filepath.Join(os.TempDir(), "ckptlint-test-cache"))
	}
	// Nor the user's cache directory, where fix outside git keeps its
	// journal (docs/fix.md, "Writing").
	if os.Getenv("XDG_CACHE_HOME") == "" {
		_ = os.Setenv("XDG_CACHE_HOME", filepath.Join(os.TempDir(), "ckptlint-test-user-cache"))
	}
	testscript.Main(m, map[string]func(){
		"ckptlint": func() {
			render.Executable = ""
			os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
		"ckptlint-render": func() { os.Exit(renderer.Main()) },
	})
}

// TestScript runs the end-to-end scripts in testdata/script: each is a real
// ckptlint process over real files, with its stdout, stderr and exit code
// asserted. The stories of ../../testdata/stories are reachable as $STORIES.
func TestScript(t *testing.T) {
	stories, err := filepath.Abs("../../testdata/stories")
	if err != nil {
		t.Fatal(err)
	}
	// One result cache for every script, never the user's: the scripts run
	// in parallel and share it as concurrent ckptlint processes would.
	cacheDir := t.TempDir()
	// fix outside git keeps its journal in the user cache directory;
	// testscript's HOME (/no-home) has none.
	userCache := t.TempDir()
	factsData, err := filepath.Abs("../../facts/testdata")
	if err != nil {
		t.Fatal(err)
	}
	seeds, err := filepath.Abs("../../internal/logs/testdata/seeds")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("STORIES", stories)
			env.Setenv("CKPTLINT_CACHE_DIR", cacheDir)
			env.Setenv("XDG_CACHE_HOME", userCache)
			env.Setenv("FACTS", factsData)
			env.Setenv("SEEDS", seeds)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"repeat": cmdRepeat, "rename": cmdRename, "gzip": cmdGzip},
	})
}

// cmdRepeat writes a file too large or too odd to keep in a txtar:
//
//	repeat FILE COUNT TEXT [PREFIX [SUFFIX]]
//
// writes PREFIX, TEXT COUNT times, then SUFFIX (directories are created). \n, \r, \t, \xHH and %d
// (the 0-based repetition, in TEXT) are expanded, so the hostile-input
// scripts can build NUL bytes, invalid UTF-8 and a million distinct keys.
func cmdRepeat(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 || len(args) > 5 {
		ts.Fatalf("usage: repeat FILE COUNT TEXT [PREFIX [SUFFIX]]")
	}
	n, err := strconv.Atoi(args[1])
	if err != nil {
		ts.Fatalf("repeat: count: %v", err)
	}
	unq := func(s string) string {
		u, err := strconv.Unquote(`"` + strings.ReplaceAll(s, `"`, `\"`) + `"`)
		if err != nil {
			ts.Fatalf("repeat: %q: %v", s, err)
		}
		return u
	}
	text := unq(args[2])
	var b bytes.Buffer
	if len(args) > 3 {
		b.WriteString(unq(args[3]))
	}
	for i := range n {
		if strings.Contains(text, "%d") {
			b.WriteString(strings.ReplaceAll(text, "%d", strconv.Itoa(i)))
		} else {
			b.WriteString(text)
		}
	}
	if len(args) > 4 {
		b.WriteString(unq(args[4]))
	}
	ts.Check(os.MkdirAll(filepath.Dir(ts.MkAbs(args[0])), 0o755))
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), b.Bytes(), 0o644))
}

// cmdGzip compresses a file, as gzip(1) and log rotation do, for the .gz
// logs of explain --log and facts --from-log:
//
//	gzip SRC DST
func cmdGzip(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: gzip SRC DST")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	ts.Check(err)
	_, err = zw.Write(data)
	ts.Check(err)
	ts.Check(zw.Close())
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), b.Bytes(), 0o644))
}

// cmdRename renames a file or directory to a name a txtar cannot hold:
//
//	rename OLD NEW
//
// with \n, \r, \t, \xHH, \uHHHH and the other Go escapes expanded in
// NEW (whose parent directories are created: a slash in NEW is a
// directory), so the hostile-name scripts can make directories whose names
// hold newlines, escape sequences and bidirectional controls.
func cmdRename(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: rename OLD NEW")
	}
	name, err := strconv.Unquote(`"` + strings.ReplaceAll(args[1], `"`, `\"`) + `"`)
	if err != nil {
		ts.Fatalf("rename: %q: %v", args[1], err)
	}
	ts.Check(os.MkdirAll(filepath.Dir(ts.MkAbs(name)), 0o755))
	ts.Check(os.Rename(ts.MkAbs(args[0]), ts.MkAbs(name)))
}
