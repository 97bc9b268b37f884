package evaluate

import (
	"errors"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/format"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Edits sets the Edits of each of the set's findings ps (in place): the
// exact replacements of a finding's fix when every operation targets the
// Flink file the set reads and that file is a flink-conf.yaml or a
// config.yaml. These are the edits `ckptlint fix` makes for that finding on
// its own, computed by the same editors while the set's files are parsed
// (SARIF's fixes read them). Other fixes (Hadoop files, which fix may have
// to create or find through Flink's lookup order, and FlinkDeployment
// manifests) stay operations only.
func Edits(s *model.Set, ps []Pending) {
	ff := s.Flink
	if ff == nil || s.Manifest != nil || ff.Err != nil {
		return
	}
	fm := format.Of(ff.Format)
	if fm == nil {
		return
	}
	// One editor and one line table for the set's findings: an editor
	// computes every edit against the source it was built from and leaves
	// it unchanged (parsed.Editor), so the findings need not each build
	// one (which parses the file again).
	var ed parsed.Editor
	var lines *parsed.Lines
	for i, f := range ps {
		if len(f.Fix) == 0 {
			continue
		}
		if ed == nil {
			if ed = fm.FileEditor(ff); ed == nil {
				return
			}
			lines = parsed.NewLines(ff.Src)
		}
		edits, ok := flinkEdits(ed, f.Fix)
		if !ok || len(edits) == 0 {
			continue
		}
		norm, err := parsed.Normalize(len(ff.Src), edits)
		if err != nil {
			continue
		}
		reps := make([]finding.Replacement, 0, len(norm))
		for _, e := range norm {
			reps = append(reps, finding.Replacement{File: ff.Path, Span: lines.Span(e.Start, e.End), Text: e.Text})
		}
		ps[i].Edits = reps
	}
}

// flinkEdits lowers ops that all target the Flink file to edits; false when
// one targets another file or cannot be lowered.
func flinkEdits(ed parsed.Editor, ops []finding.Op) ([]parsed.Edit, bool) {
	var all []parsed.Edit
	for _, op := range ops {
		if op.Target != "flink" {
			return nil, false
		}
		var es []parsed.Edit
		var err error
		switch op.Op {
		case "set":
			es, err = ed.Set(op.Key, op.Value)
		case "delete":
			es, err = ed.Delete(op.Key)
			if errors.Is(err, parsed.ErrNotFound) {
				err = nil
			}
		case "rename":
			es, err = ed.Rename(op.Key, op.NewKey)
		default:
			return nil, false
		}
		if err != nil {
			return nil, false
		}
		all = append(all, es...)
	}
	return all, true
}
