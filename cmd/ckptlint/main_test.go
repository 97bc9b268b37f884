package main

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script/*.txtar")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"ckptlint": func() { os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
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
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("STORIES", stories)
			return nil
		},
	})
}
