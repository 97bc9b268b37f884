// Package fix plans what `ckptlint fix` changes: Run applies the fix
// operations of the findings in memory, re-lints and repeats until nothing
// more changes, and returns the changes (package write writes them); Edits
// attaches the exact replacements of a finding's fix for SARIF, and Diff
// renders a change for `fix --diff`.
package fix

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/format"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/versions"
	"github.com/ckptlint/ckptlint/lint"
	"github.com/ckptlint/ckptlint/write"
)

// MaxRounds caps the fix loop: apply, re-lint, apply again.
const MaxRounds = 10

// Options configure Fix.
type Options struct {
	Paths []string
	Lint  lint.Options
	// Rules limits fixing to these rule ids; empty means every fixable rule.
	Rules []string
}

// Applied is one fix operation that changed a file.
type Applied struct {
	Finding finding.Finding
	Op      finding.Op
	File    string // display path of the file changed (or created)
	Key     string // the key written there (flink.hadoop.<k> when passed through Flink)
}

// Skipped is a fix operation that could not be applied, with the reason.
type Skipped struct {
	Finding finding.Finding
	Op      finding.Op
	Reason  string
	// Outside marks an edit held back because the config set's Flink
	// version is known but outside the releases ckptlint's key tables
	// cover: declaring the version does not release it.
	Outside bool
}

// Result is what a fix run plans: the new contents and an account of
// what was fixed and what remains.
type Result struct {
	Changes []write.Change
	Display map[string]string // OS path → display path
	Applied []Applied
	Skipped []Skipped
	// Held are version-dependent operations held back because the config
	// set's Flink version is not known, or is outside the releases the key
	// tables cover (docs/versions.md).
	Held      []Skipped
	Remaining []finding.Finding // findings of the final re-lint
	Rounds    int
	// Unread lists the paths that could not be read (lint.Result.Unread):
	// their sets are not fixed, the others are.
	Unread []string
	// Unlinted are the config sets past lint.MaxSets (lint.Result.Unlinted):
	// not fixed; nil when there are none.
	Unlinted *lint.Unlinted
	// Files are the OS paths of the configuration files the final lint
	// read (beside which Writer.Sweep looks for stale staged files).
	Files []string
}

// file is one file as the planner holds it in memory.
type file struct {
	abs     string
	real    string // abs with its symlinks resolved: one file per real path
	disp    string
	format  parsed.Format
	orig    []byte // nil for a file the planner creates
	cur     []byte
	mode    os.FileMode
	created bool
}

type planner struct {
	files  map[string]*file // by the path each was discovered under
	byReal map[string]*file // by resolved path
	res    *Result
	// edited are the files an edit changed this round: a file written
	// inside one of them is edited again only in the next round, when its
	// place in the container is read again.
	edited map[*file]bool
}

// Run lints paths, applies every fix operation of the selected rules in
// memory, re-lints and repeats until no fixable finding changes anything
// (at most MaxRounds), and returns the changes to write. Nothing is written.
func Run(ctx context.Context, eng *engine.Engine, opts Options) (*Result, error) {
	p := &planner{files: map[string]*file{}, byReal: map[string]*file{}, res: &Result{Display: map[string]string{}}}
	selected := func(id string) bool { return len(opts.Rules) == 0 || slices.Contains(opts.Rules, id) }
	var last *lint.Result
	for round := 1; ; round++ {
		lo := opts.Lint
		lo.Overlay = p.overlay()
		r, err := lint.Lint(ctx, eng, opts.Paths, lo)
		if err != nil {
			return nil, err
		}
		last = r
		if round > MaxRounds {
			break
		}
		changed := false
		byName := map[string]*model.Set{}
		for _, s := range r.Sets {
			byName[s.Name] = s
		}
		written := map[string]wrote{} // file+key → what a fix wrote there this round
		p.edited = map[*file]bool{}
		for _, f := range r.Findings {
			if len(f.Fix) == 0 || !selected(f.RuleID) {
				continue
			}
			s := byName[f.ConfigSet]
			for _, op := range f.Fix {
				ok, err := p.apply(s, f, op, written)
				var held *heldBack
				if errors.As(err, &held) {
					p.res.Held = append(p.res.Held, Skipped{Finding: f, Op: op, Reason: held.reason, Outside: held.outside})
					continue
				}
				if err != nil {
					p.res.Skipped = append(p.res.Skipped, Skipped{Finding: f, Op: op, Reason: err.Error()})
					continue
				}
				changed = changed || ok
			}
		}
		if !changed {
			break
		}
		p.res.Rounds = round
	}
	p.res.Remaining = last.Findings
	p.res.Unread, p.res.Unlinted = last.Unread, last.Unlinted
	for _, s := range last.Sets {
		for _, cf := range s.Files() {
			if abs, err := filepath.Abs(filepath.FromSlash(cf.Path)); err == nil && !slices.Contains(p.res.Files, abs) {
				p.res.Files = append(p.res.Files, abs)
			}
		}
	}
	// Reported is what the final lint still asks for: an operation a round
	// skipped (a conflict) or held back and a later round applied, or made
	// unnecessary, is not reported as not applied.
	p.res.Skipped = stillWanted(dedupeSkipped(p.res.Skipped), last.Findings)
	p.res.Held = stillWanted(dedupeSkipped(p.res.Held), last.Findings)
	for _, f := range p.sortedFiles() {
		if string(f.cur) == string(f.orig) && !f.created {
			continue
		}
		p.res.Changes = append(p.res.Changes, write.Change{Path: f.abs, Old: f.orig, New: f.cur, Mode: f.mode})
		p.res.Display[f.abs] = f.disp
	}
	return p.res, nil
}

func (p *planner) overlay() map[string][]byte {
	m := map[string][]byte{}
	for k, f := range p.files {
		if f.created || string(f.cur) != string(f.orig) {
			m[k] = f.cur
		}
	}
	return m
}

func (p *planner) sortedFiles() []*file {
	out := make([]*file, 0, len(p.files))
	for _, f := range p.files {
		if !slices.Contains(out, f) { // a symlink and its target share one *file
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].abs < out[j].abs })
	return out
}

// load returns the planner's copy of a parsed file.
func (p *planner) load(cf *parsed.File) (*file, error) {
	abs, err := filepath.Abs(filepath.FromSlash(cf.Path))
	if err != nil {
		return nil, err
	}
	if f, ok := p.files[abs]; ok {
		if f.format == "" && cf.Embed == nil {
			f.format = cf.Format
		}
		return f, nil
	}
	// An in-repository symlink and its target can both be discovered (two
	// config sets sharing one hdfs-site.xml): they are one file, planned and
	// written once, and the overlay serves the edited bytes under both paths.
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	if f, ok := p.byReal[real]; ok {
		p.files[abs] = f
		return f, nil
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	orig, err := os.ReadFile(abs)
	if err != nil {
		return nil, err
	}
	f := &file{abs: abs, real: real, disp: cf.Path, format: cf.Format, orig: orig, cur: orig, mode: st.Mode().Perm()}
	if cf.Embed != nil {
		f.format = "" // the container's own format: set by a target that edits the container itself
	}
	p.files[abs] = f
	p.byReal[real] = f
	return f, nil
}

// create returns the planner's copy of a Hadoop file to create in dir.
func (p *planner) create(dir, disp string, id parsed.Format) *file {
	name := format.Of(id).FileName
	abs := filepath.Join(dir, name)
	if f, ok := p.files[abs]; ok {
		return f
	}
	real := abs
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		real = filepath.Join(d, name) // a symlinked directory and its target get one new file
	}
	if f, ok := p.byReal[real]; ok {
		p.files[abs] = f
		return f
	}
	f := &file{abs: abs, real: real, disp: strings.TrimPrefix(disp+"/"+name, "./"), format: id, cur: newHadoopFile(), mode: 0o644, created: true}
	p.files[abs] = f
	p.byReal[real] = f
	return f
}

// target is where one operation lands.
type target struct {
	f        *file
	key      string
	manifest string // FlinkDeployment name for manifest files
	// embed is set when the file edited is written inside f (a ConfigMap
	// key, a compose FLINK_PROPERTIES block), of format format.
	embed  *parsed.Embed
	format parsed.Format
}

// versionHold holds back an edit that is right only for some releases
// while the set's Flink or Hadoop version does not say it is (a *heldBack),
// and returns nil when the edit may be made.
func versionHold(s *model.Set, op finding.Op) error {
	if versions.NeedsVersion(op) && !s.FlinkVersion.Covered() {
		if c := s.FlinkVersion.Coverage("Flink"); c != "" {
			return &heldBack{reason: "the edit is right only for some Flink releases and " + c, outside: true}
		}
		return &heldBack{reason: "the edit is right only for some Flink releases and the Flink version is not known"}
	}
	if versions.NeedsHadoopVersion(op) && !versions.HadoopRenamesRead(s) {
		if s.HadoopVersion.Known() {
			return &heldBack{reason: s.HadoopVersion.Text("Hadoop") + " reads only the old name; the new one came with Hadoop 0.23/2.0"}
		}
		return &heldBack{reason: "Hadoop reads the new name only from 0.23/2.0 on (1.x reads only the old one) and the Hadoop version is not known"}
	}
	return nil
}

// apply performs one operation; it reports whether a file changed.
func (p *planner) apply(s *model.Set, fd finding.Finding, op finding.Op, written map[string]wrote) (bool, error) {
	if s == nil {
		return false, fmt.Errorf("config set %q not found", fd.ConfigSet)
	}
	if err := versionHold(s, op); err != nil {
		return false, err
	}
	t, err := p.resolve(s, op)
	if err != nil {
		return false, err
	}
	if err := consumerReads(s, t, op); err != nil {
		return false, err
	}
	sig, err := claim(written, t, op, fd.RuleID)
	if err != nil {
		return false, err
	}
	src, view, later, err := p.editable(t)
	if err != nil || later {
		if later {
			delete(written, sig)
		}
		return false, err
	}
	ed, err := editorFor(t, src)
	if err != nil {
		return false, err
	}
	edits, err := opEdits(ed, t, op)
	if err != nil {
		return false, fmt.Errorf("%s %s in %s: %w", op.Op, t.key, t.f.disp, err)
	}
	if len(edits) == 0 {
		return false, nil
	}
	if view != nil {
		edits = view.edits(edits)
	}
	out, err := parsed.Apply(t.f.cur, edits)
	if err != nil {
		return false, fmt.Errorf("%s %s in %s: %w", op.Op, t.key, t.f.disp, err)
	}
	if string(out) == string(t.f.cur) {
		return false, nil
	}
	t.f.cur = out
	p.edited[t.f] = true
	p.res.Applied = append(p.res.Applied, Applied{Finding: fd, Op: op, File: t.f.disp, Key: t.key})
	return true, nil
}

// opEdits are the edits op makes with editor ed; none for a delete or
// rename of a key that is gone (an earlier round's edit).
func opEdits(ed parsed.Editor, t target, op finding.Op) (edits []parsed.Edit, err error) {
	switch op.Op {
	case "set":
		edits, err = ed.Set(t.key, op.Value)
	case "delete":
		edits, err = ed.Delete(t.key)
		if errors.Is(err, parsed.ErrNotFound) {
			return nil, nil
		}
	case "rename":
		newKey := op.NewKey
		if strings.HasPrefix(t.key, "flink.hadoop.") && op.Target != "flink" {
			newKey = "flink.hadoop." + newKey
		}
		edits, err = ed.Rename(t.key, newKey)
		if errors.Is(err, parsed.ErrNotFound) {
			return nil, nil // renamed in an earlier round
		}
	default:
		err = fmt.Errorf("unknown fix operation %q", op.Op)
	}
	return edits, err
}

// claim records that op of rule writes t's key this round, refusing a
// second fix that wants another result there: the next round lints again
// and retries, and Run reports the skip only if this finding still asks
// for it at the end, when the two fixes keep wanting different things.
func claim(written map[string]wrote, t target, op finding.Op, rule string) (string, error) {
	sig := t.f.abs + "\x00" + t.key
	val := op.Op + "=" + op.Value + op.NewKey
	if prev, ok := written[sig]; ok && prev.val != val {
		return sig, fmt.Errorf("conflicts with the fix of %s (%s %s) in %s: both fixes edit that key and want different results; edit it by hand", prev.rule, prev.val, t.key, t.f.disp)
	}
	written[sig] = wrote{val: val, rule: rule}
	return sig, nil
}

// editable is the text an edit of t works on: the file's, or for a text
// written inside it (a ConfigMap key, FLINK_PROPERTIES) the view of its
// literal block. later is set when the block's place was read before this
// round's other edit of the file: the next round, linted again, edits it.
func (p *planner) editable(t target) (src []byte, view *blockView, later bool, err error) {
	if t.embed == nil {
		return t.f.cur, nil, false, nil
	}
	if !t.embed.Exact {
		return nil, nil, false, fmt.Errorf("%s at %s:%d is not a literal block (|) there, so its lines have no place fix can edit: write it as a block to let fix edit it", t.key, t.f.disp, t.embed.Line)
	}
	if p.edited[t.f] {
		return nil, nil, true, nil
	}
	if view, err = viewOf(t.f.cur, t.embed); err != nil {
		return nil, nil, false, err
	}
	return view.text, view, false, nil
}

// consumerReads refuses a set whose value the file's consumer would not
// read (docs/fix.md, "Values its consumer reads"): a Flink value the set's
// Flink release does not parse as its key's type (Flink's TimeUtils,
// MemorySize and ConfigurationUtils, as internal/units implements them),
// a Hadoop value (in a Hadoop file, or as flink.hadoop.*) that Hadoop's
// getter for the key does not read. The embedded rules write only values
// their consumers read, which TestFixValidForConsumer holds them to; this
// keeps a user policy's fix, or a rule's bug, from writing a file Flink or
// Hadoop refuses. A key outside ckptlint's catalogue is not judged.
func consumerReads(s *model.Set, t target, op finding.Op) error {
	if op.Op != "set" {
		return nil
	}
	id := t.f.format
	if t.embed != nil {
		id = t.format // a text inside another file: its own format
	}
	if k, ok := strings.CutPrefix(t.key, "flink.hadoop."); ok || format.Of(id).Product == format.Hadoop {
		if !ok {
			k = t.key
		}
		if _, err := model.HadoopValueError(k, op.Value); err != nil {
			return fmt.Errorf("Hadoop does not read %q as %s (%v): the value was not written", op.Value, k, err)
		}
		return nil
	}
	e := &parsed.Entry{Key: t.key, Value: op.Value, Kind: parsed.KindString}
	if _, err := model.FlinkValueError(t.key, e, s.FlinkVersion.Version); err != nil {
		return fmt.Errorf("%s does not read %q as %s (%v): the value was not written", s.FlinkVersion.Text("Flink"), op.Value, t.key, err)
	}
	return nil
}

// wrote is what one fix operation of a round wrote at a file's key: the
// operation and value, and the rule whose finding it fixes.
type wrote struct{ val, rule string }

// targetOf is the target of an edit of key in the parsed file cf: the file
// itself, or the container of a file written inside another (cf.Embed).
func (p *planner) targetOf(cf *parsed.File, key, manifest string) (target, error) {
	f, err := p.load(cf)
	if err != nil {
		return target{}, err
	}
	t := target{f: f, key: key, manifest: manifest}
	if cf.Embed != nil {
		t.embed, t.format = cf.Embed, cf.Format
	}
	return t, nil
}

// editorFor parses content in its format and returns the editor.
func editorFor(t target, src []byte) (parsed.Editor, error) {
	id := t.f.format
	if t.embed != nil {
		id = t.format
	}
	fm := format.Of(id)
	if fm == nil {
		return nil, fmt.Errorf("no editor for %s", t.f.format)
	}
	return fm.Editor(t.f.disp, src, t.manifest)
}

// resolve maps an operation's target to a file and key (docs/fix.md, "Where an operation lands").
//
//   - flink: the Flink file the set reads (for a manifest, that deployment's
//     spec.flinkConfiguration).
//   - hdfs-client / core-client: where Flink's HDFS client reads the key:
//     the file (or flink.hadoop.* entry) that supplies the effective value
//     today; else the highest-priority client file of that kind; else, on
//     Flink >= 1.13, flink.hadoop.<key> in the Flink file (no Hadoop file of
//     the repository is read by Flink's client); else a new file in the
//     directory Flink reads Hadoop files from.
//   - hdfs-cluster: the cluster's hdfs-site.xml, else a client hdfs-site.xml
//     that already sets the key.
func (p *planner) resolve(s *model.Set, op finding.Op) (target, error) {
	switch op.Target {
	case "flink":
		if s.Flink == nil {
			return target{}, fmt.Errorf("the config set has no Flink configuration")
		}
		t, err := p.targetOf(s.Flink, op.Key, "")
		if err != nil {
			return target{}, err
		}
		if s.Manifest != nil {
			t.manifest = s.Manifest.Name
		}
		return t, nil
	case "hdfs-client", "core-client":
		id := parsed.HadoopHDFSSite
		if op.Target == "core-client" {
			id = parsed.HadoopCoreSite
		}
		return p.resolveClient(s, op.Key, id)
	case "hdfs-cluster":
		if s.ClusterHDFS != nil {
			return p.targetOf(s.ClusterHDFS, op.Key, "")
		}
		for i := len(s.Client) - 1; i >= 0; i-- {
			if cf := s.Client[i].File; cf.Format == parsed.HadoopHDFSSite && cf.Lookup(op.Key) != nil {
				return p.targetOf(cf, op.Key, "")
			}
		}
		return target{}, fmt.Errorf("%s is a NameNode/DataNode setting and no cluster hdfs-site.xml is known: declare cluster_hdfs_site in a deployment block of .ckptlint.hcl", op.Key)
	}
	return target{}, fmt.Errorf("unknown fix target %q", op.Target)
}

func (p *planner) resolveClient(s *model.Set, key string, id parsed.Format) (target, error) {
	// The resource that supplies the value today, in Flink's order.
	var won *parsed.File
	for _, r := range s.Client {
		if r.File.Format != id {
			continue
		}
		if e := r.File.Lookup(key); e != nil && e.Value != "" {
			if won != nil && won.Lookup(key).Final {
				continue
			}
			won = r.File
		}
	}
	passthrough := s.Flink != nil && s.FlinkVersion.Version.AtLeast(model.V(1, 13))
	if passthrough { // flink.hadoop.* is Configuration.set(): it wins over every file, final or not
		if s.Flink.Lookup("flink.hadoop."+key) != nil {
			return p.targetOf(s.Flink, "flink.hadoop."+key, manifestName(s))
		}
	}
	if won != nil {
		return p.targetOf(won, key, "")
	}
	for i := len(s.Client) - 1; i >= 0; i-- {
		if r := s.Client[i]; r.File.Format == id && r.File.Err == nil {
			return p.targetOf(r.File, key, "")
		}
	}
	if passthrough && !s.FlinkVersion.Covered() {
		if c := s.FlinkVersion.Coverage("Flink"); c != "" {
			return target{}, &heldBack{reason: fmt.Sprintf("a new flink.hadoop.%s entry is read only from Flink 1.13 and %s", key, c), outside: true}
		}
		return target{}, &heldBack{reason: fmt.Sprintf("a new flink.hadoop.%s entry is read only from Flink 1.13 and the Flink version is not known", key)}
	}
	if passthrough {
		return p.targetOf(s.Flink, "flink.hadoop."+key, manifestName(s))
	}
	if s.Flink == nil {
		return target{}, fmt.Errorf("no Hadoop client file to hold %s", key)
	}
	if s.Deployed != nil {
		return target{}, fmt.Errorf("%s reads its Hadoop files through its deployment (%s), where fix creates no file: add %s to the hdfs-site.xml that deployment provides", s.Deployed.Subject, s.Deployed.HadoopMissing, key)
	}
	dir, disp := p.confDir(s)
	if dir == "" {
		return target{}, fmt.Errorf("Flink %s has no flink.hadoop.* pass-through and the directory it reads Hadoop files from is outside the repository: set %s in the hdfs-site.xml of HADOOP_CONF_DIR", s.FlinkVersion.Version, key)
	}
	return target{f: p.create(dir, disp, id), key: key}, nil
}

// heldBack is an operation fix does not apply until the Flink version is
// known: not an error of the edit, a missing fact. outside marks one held
// because the known version is outside the releases the key tables cover,
// which declaring the version does not change.
type heldBack struct {
	reason  string
	outside bool
}

func (h *heldBack) Error() string { return h.reason }

func manifestName(s *model.Set) string {
	if s.Manifest != nil {
		return s.Manifest.Name
	}
	return ""
}

// confDir is the directory Flink reads Hadoop files from for s: the last
// conf-dir option that resolves in the repository, else the Flink file's
// directory (taken to be HADOOP_CONF_DIR), as OS and display paths.
func (p *planner) confDir(s *model.Set) (string, string) {
	for i := len(s.HadoopConfRefs) - 1; i >= 0; i-- {
		if r := s.HadoopConfRefs[i]; r.Resolved != "" && r.Reason == "" {
			abs, err := filepath.Abs(filepath.FromSlash(r.Resolved))
			if err == nil {
				return abs, r.Resolved
			}
		}
	}
	if s.Flink.Format == parsed.FlinkDeployment {
		return "", ""
	}
	abs, err := filepath.Abs(filepath.Dir(filepath.FromSlash(s.Flink.Path)))
	if err != nil {
		return "", ""
	}
	return abs, filepath.ToSlash(filepath.Dir(s.Flink.Path))
}

// stillWanted keeps the skipped operations that a finding of the final
// lint (remaining) still carries: the same rule, config set and operation.
func stillWanted(in []Skipped, remaining []finding.Finding) []Skipped {
	var out []Skipped
	for _, s := range in {
		if slices.ContainsFunc(remaining, func(f finding.Finding) bool {
			return f.RuleID == s.Finding.RuleID && f.ConfigSet == s.Finding.ConfigSet && slices.Contains(f.Fix, s.Op)
		}) {
			out = append(out, s)
		}
	}
	return out
}

func dedupeSkipped(in []Skipped) []Skipped {
	seen := map[string]bool{}
	var out []Skipped
	for _, s := range in {
		k := s.Finding.RuleID + s.Finding.Range.File + s.Op.Key + s.Reason
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, s)
	}
	return out
}
