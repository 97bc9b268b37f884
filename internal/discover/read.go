package discover

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/ckptlint/ckptlint/internal/format"
	"github.com/ckptlint/ckptlint/internal/format/hadoopxml"
	"github.com/ckptlint/ckptlint/internal/inputfs"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/safetext"
)

// read resolves path once (symlinks included), checks it against the
// boundary and the run's budget, and reads it when it is a regular file;
// real is the path it read.
// The walk's prefetcher may have checked and read it already (take): the
// budget is charged here, in walk order, either way.
func (d *Tree) read(path string) (src []byte, real string, err error) {
	if a, ok := d.take(path); ok {
		src, real, err = a.src, a.real, a.err
	} else if real, err = d.Check(path); err == nil {
		src, _, err = d.readReal(real, parsed.MaxFileSize)
	}
	if err != nil {
		return nil, "", err
	}
	if err := d.budget.Take(int64(len(src))); err != nil {
		return nil, "", err
	}
	return src, real, nil
}

// readReal reads real, a path Check returned: below the handle on its
// boundary root (inputfs.Boundary ReadRegularInfo), through the run's FS.
func (d *Tree) readReal(real string, limit int64) ([]byte, fs.FileInfo, error) {
	if d.bound == nil {
		return d.fs.ReadFile(real, limit)
	}
	return d.bound.ReadRegularInfo(real, limit)
}

// notRead turns a read failure into what the user sees: a path that is not
// a regular file is a note; one outside the repository or too large is a
// CKPT000 finding; one that could not be read (permissions, I/O, the
// run's budget) is a CKPT000 finding and makes the run end with exit 2.
func (d *Tree) notRead(path string, explicit bool, err error) error {
	var nr *inputfs.NotRegularError
	var tl *inputfs.TooLargeError
	var be *inputfs.BudgetError
	switch {
	case errors.As(err, &nr):
		if explicit || d.looksLikeConfig(filepath.Base(path)) {
			d.notef("%s: %s, not a regular file; not read", safetext.Path(d.Display(path)), nr.Kind)
		}
		return nil
	case inputfs.IsOutside(err):
		return d.refuse(path, explicit, "not read: "+d.outsideReason(err), parsed.ErrOutside, false)
	case errors.As(err, &tl):
		if !explicit && format.ByName(path) == nil {
			return nil // a large YAML file that is not a configuration file
		}
		return d.refuse(path, explicit, tl.Error(), parsed.ErrLimit, false)
	case errors.As(err, &be):
		return d.refuse(path, explicit, be.Error(), parsed.ErrLimit, true)
	}
	return d.refuse(path, explicit, "cannot read the file: "+strings.TrimPrefix(unwrapPath(err).Error(), "EvalSymlinks: "), parsed.ErrRefused, true)
}

// refuseRead is refuse for a file read and refused for its content (src):
// its bytes are kept for the reporters (Found.Src).
func (d *Tree) refuseRead(path string, explicit bool, msg string, kind parsed.ErrKind, src []byte) error {
	err := d.refuse(path, explicit, msg, kind, false)
	if f := d.files[path]; err == nil && f != nil {
		f.Src = src
	}
	return err
}

// refuse records a file that is not linted: a CKPT000 finding when its
// name tells its format, else a note. kind says why (parsed.ErrKind);
// unread marks a file that could not be read at all (exit 2).
func (d *Tree) refuse(path string, explicit bool, msg string, kind parsed.ErrKind, unread bool) error {
	disp := d.Display(path)
	if unread {
		d.unread = append(d.unread, path)
	}
	fm := format.ByName(path)
	perr := &parsed.ParseError{File: disp, Pos: parsed.Top(), Msg: msg, Kind: kind, Unread: unread}
	switch {
	case fm != nil:
	case d.manifestRefused == path:
		d.keep(&Found{Path: path, Disp: disp, Format: parsed.FlinkDeployment, Err: perr})
		return nil
	case format.Conventional(path):
		fm = format.Of(parsed.FlinkConfigYAML) // config.yaml: its content would tell
	default:
		if explicit || unread {
			d.notef("%s: %s", safetext.Path(disp), msg)
		}
		return nil
	}
	d.keep(&Found{Path: path, Disp: disp, Format: fm.ID, Err: perr})
	return nil
}

// outsideReason says why a path outside the boundary is not read, with
// paths relative to the working directory where that is shorter.
func (d *Tree) outsideReason(err error) string {
	var oe *inputfs.OutsideError
	if !errors.As(err, &oe) {
		return err.Error()
	}
	roots := make([]string, len(oe.Roots))
	for i, r := range oe.Roots {
		roots[i] = filepath.ToSlash(r)
	}
	via := ""
	if abs, _ := filepath.Abs(oe.Path); abs != oe.Resolved {
		via = " (it resolves to " + filepath.ToSlash(oe.Resolved) + ")"
	}
	return fmt.Sprintf("it lies outside the repository%s; ckptlint reads only files inside %s or named on the command line or in .ckptlint.hcl",
		via, strings.Join(roots, ", "))
}

// unwrapPath drops the operation and path of an *fs.PathError (the
// message names the file already).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func kindName(m fs.FileMode) string { return inputfs.KindOf(m) }

// readIncluded reads an xi:include target, already joined to the including
// file's directory by the parser. A target outside the boundary, or one
// that is not a regular file, is refused (the include becomes a
// xml-include-not-followed notice naming the href and why); only regular
// files up to the size cap are read, and they count against the run's
// budget.
func (d *Tree) readIncluded(p string) (src []byte, real string, err error) {
	real, err = d.Check(p)
	if err != nil {
		if inputfs.IsOutside(err) {
			return nil, "", refusedInclude{errors.New(d.outsideReason(err))}
		}
		return nil, "", err
	}
	src, _, err = d.readReal(real, parsed.MaxFileSize)
	var nr *inputfs.NotRegularError
	if errors.As(err, &nr) {
		return nil, "", refusedInclude{fmt.Errorf("it is %s, not a regular file", nr.Kind)}
	}
	if err != nil {
		return nil, "", err
	}
	if err := d.budget.Take(int64(len(src))); err != nil {
		d.unread = append(d.unread, p)
		return nil, "", err
	}
	return src, real, nil
}

// refusedInclude is an include target ckptlint must not read.
type refusedInclude struct{ err error }

func (r refusedInclude) Error() string        { return r.err.Error() }
func (r refusedInclude) Is(target error) bool { return target == hadoopxml.ErrNotFollowed }
