// Package scan runs the deployment sources (internal/deploy/...) over the
// deployment files discovery read and collects what they declare into one
// deploy.Model. Each source reads only the bytes given and, for the files
// it refers to (a compose file's .env, a Dockerfile's build context, a
// chart's templates), asks read, which the run serves within its
// repository boundary and input budget.
package scan

import (
	"fmt"
	"runtime/debug"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// File is one deployment file: its display path, kind (deploy.Kind*) and
// bytes.
type File struct {
	Disp string
	Kind string
	Src  []byte
}

// Read reads another file of the repository by display path.
type Read func(disp string) ([]byte, error)

// reader reads one kind of deployment file.
type reader func(f File, read Read) (*deploy.Model, error)

// readers are the sources, by kind. A kind without one is read by no
// source yet.
var readers = map[string]reader{}

// Model reads every file with the reader of its kind. A reader that fails
// or panics (a bug in a third-party parser) is a note naming the file;
// the other files are read.
func Model(files []File, read Read) *deploy.Model {
	m := &deploy.Model{}
	for _, f := range files {
		r := readers[f.Kind]
		if r == nil {
			continue
		}
		got, err := safe(r, f, read)
		if err != nil {
			m.Notes = append(m.Notes, fmt.Sprintf("%s: not read as a %s file: %v", f.Disp, f.Kind, err))
			continue
		}
		m.Add(got)
	}
	return m
}

func safe(r reader, f File, read Read) (m *deploy.Model, err error) {
	defer func() {
		if v := recover(); v != nil {
			m, err = nil, fmt.Errorf("the reader failed (%v)\n%s", v, debug.Stack())
		}
	}()
	return r(f, read)
}
