package engine

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/ckptlint/ckptlint/internal/inputfs"
)

// source is one Rego file to compile.
type source struct {
	name string // file name shown in messages
	src  []byte
	user bool
	test bool
	// embedded: from the embedded bundle, parsed without its METADATA
	// blocks; its rules' metadata comes from internal/rule's generated table.
	embedded bool
}

// readFS collects the .rego files of an fs.FS below root, the _test.rego
// files only with tests (the embedded bundle's tests are 170 KB that lint
// would read and drop on every run). read reads one file (fs.ReadFile
// when nil).
func readFS(fsys fs.FS, root, prefix string, user, tests bool, read func(p string) ([]byte, error)) ([]source, error) {
	if read == nil {
		read = func(p string) ([]byte, error) { return fs.ReadFile(fsys, p) }
	}
	var out []source
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".rego") {
			return nil
		}
		test := strings.HasSuffix(p, "_test.rego")
		if test && !tests {
			return nil
		}
		b, err := read(p)
		if err != nil {
			return err
		}
		out = append(out, source{name: path.Join(prefix, p), src: b, user: user, test: test})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, err
}

// maxPolicyFile bounds one user policy file (the embedded bundle's largest
// is some 20 KB).
const maxPolicyFile = 16 << 20

// readDir collects the .rego files of a user policy directory, the
// _test.rego files only with tests. Each is read as lint reads its inputs
// (inputfs.ReadRegular): opened non-blocking, its type checked on the
// descriptor, at most maxPolicyFile bytes. A FIFO named x.rego blocked the
// open until a writer came (issue 25), and a symlink to /dev/zero read
// until memory ran out; either is now an error naming the file.
func readDir(dir string, tests bool) ([]source, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("policy directory: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("policy directory %s is not a directory", dir)
	}
	read := func(p string) ([]byte, error) {
		return inputfs.ReadRegular(filepath.Join(dir, filepath.FromSlash(p)), maxPolicyFile)
	}
	srcs, err := readFS(os.DirFS(dir), ".", filepath.ToSlash(dir), true, tests, read)
	if err != nil {
		return nil, fmt.Errorf("read policy directory %s: %w", dir, err)
	}
	return srcs, nil
}

// parse parses sources as Rego v1 with METADATA annotations (but those of
// embedded sources, whose metadata internal/rule's table holds), on up to
// GOMAXPROCS goroutines; the result is in the order of srcs, and the error
// is that of the first source that fails.
func parse(srcs []source, caps *ast.Capabilities) ([]*ast.Module, error) {
	mods := make([]*ast.Module, len(srcs))
	errs := make([]error, len(srcs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(srcs)) {
		wg.Go(func() {
			for i := range next {
				s := srcs[i]
				mods[i], errs[i] = ast.ParseModuleWithOpts(s.name, string(s.src), ast.ParserOptions{
					RegoVersion: ast.RegoV1, ProcessAnnotation: !s.embedded, Capabilities: caps,
				})
			}
		})
	}
	for i := range srcs {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("parse policy: %w", err)
		}
	}
	return mods, nil
}
