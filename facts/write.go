package facts

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// Target names the blocks Apply writes into.
type Target struct {
	Cluster    string // cluster "NAME"
	Deployment string // deployment "NAME"
	// JobID is the running job the checkpoint facts are from, written as
	// running_checkpointing's job_id ("" when unknown).
	JobID string
}

// placed is one value to write and the observation it came from.
type placed struct {
	Value
	obs *Observation
}

// Apply writes the observations into the .ckptlint.hcl source src (nil or
// empty for a new file) and returns the new bytes. It updates or creates the
// named cluster block and updates the named deployment block (which must
// exist: its flink_conf is not a fact a source can tell), each value followed by a comment
// `# from <kind> <source>, <date>; <note>`, and one `facts "<kind>"` block
// per source kind in each block it wrote to. Everything else in the file is
// kept byte for byte: the tokens are written back as parsed, never through
// hclwrite's formatter, and the new lines carry their own indentation.
// A later observation's value for an attribute replaces an earlier one's,
// except state_size, of which the largest is kept: each job vertex's
// subtask details give that vertex's largest subtask.
func Apply(src []byte, filename string, obs []*Observation, t Target, now time.Time) ([]byte, error) {
	out, _, err := ApplyNotes(src, filename, obs, t, now)
	return out, err
}

// flinkFacts are the attributes that describe a Flink cluster. They belong
// in its deployment block; .ckptlint.hcl's cluster block (the HDFS cluster)
// was their old place, where every Flink cluster on that HDFS cluster
// shared, and so overwrote, them (issue 24).
var flinkFacts = []string{"taskmanagers", "slots_per_taskmanager"}

// ApplyNotes is Apply, and says what it did besides writing the values: a
// Flink fact it moved out of the cluster block, one typed there it left.
func ApplyNotes(src []byte, filename string, obs []*Observation, t Target, now time.Time) ([]byte, []string, error) {
	out, notes, err := apply(src, filename, obs, t, now)
	if err != nil {
		return nil, nil, err
	}
	return out, notes, nil
}

func apply(src []byte, filename string, obs []*Observation, t Target, now time.Time) ([]byte, []string, error) {
	f, diags := hclwrite.ParseConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, nil, fmt.Errorf("%s cannot be edited: %s", filename, diags.Error())
	}
	if err := checkUnique(src, filename, t); err != nil {
		return nil, nil, err
	}
	now = now.UTC()
	var cluster, deployment, running []placed
	for _, o := range obs {
		cluster = place(cluster, o, o.Cluster)
		deployment = place(deployment, o, o.Deployment)
		running = place(running, o, o.Running)
	}
	if len(running) > 0 && t.JobID != "" {
		// The job id is part of the running-checkpointing fact itself.
		running = append([]placed{{Value: strValue("job_id", t.JobID, "--job"), obs: running[0].obs}}, running...)
	}
	if len(cluster) > 0 {
		if t.Cluster == "" {
			return nil, nil, errors.New("cluster facts were read but no cluster block is named: pass --cluster NAME")
		}
		if err := writeBlock(f.Body(), "cluster", t.Cluster, cluster, nil, now); err != nil {
			return nil, nil, err
		}
	}
	var notes []string
	if len(deployment)+len(running) > 0 {
		if t.Deployment == "" {
			return nil, nil, errors.New("deployment facts were read but no deployment block is named: pass --deployment NAME")
		}
		if err := writeBlock(f.Body(), "deployment", t.Deployment, deployment, running, now); err != nil {
			return nil, nil, err
		}
		moved, err := moveFlinkFacts(f.Body(), src, t, deployment)
		if err != nil {
			return nil, nil, err
		}
		notes = append(notes, moved...)
	}
	var buf bytes.Buffer
	if _, err := f.BuildTokens(nil).WriteTo(&buf); err != nil {
		return nil, nil, err
	}
	out := buf.Bytes()
	// The result must parse: a bug here must never leave a broken file.
	if _, diags := hclsyntax.ParseConfig(out, filename, hcl.InitialPos); diags.HasErrors() {
		return nil, nil, fmt.Errorf("internal error: the edited %s does not parse: %s", filename, diags.Error())
	}
	return out, notes, nil
}

func place(dst []placed, o *Observation, vs []Value) []placed {
	for _, v := range vs {
		i := slices.IndexFunc(dst, func(p placed) bool { return p.Attr == v.Attr })
		if i >= 0 && v.Attr == "state_size" && larger(dst[i].Val, v.Val) {
			continue
		}
		if i >= 0 {
			dst = slices.Delete(dst, i, i+1)
		}
		dst = append(dst, placed{Value: v, obs: o})
	}
	return dst
}

// checkUnique refuses a file with two blocks of the name to write: which
// one lint uses is a validation error there, and facts must not guess.
func checkUnique(src []byte, filename string, t Target) error {
	file, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return fmt.Errorf("%s cannot be edited: %s", filename, diags.Error())
	}
	body, _ := file.Body.(*hclsyntax.Body)
	if body == nil {
		return nil
	}
	for _, want := range [][2]string{{"cluster", t.Cluster}, {"deployment", t.Deployment}} {
		var lines []string
		for _, b := range body.Blocks {
			if b.Type == want[0] && len(b.Labels) == 1 && b.Labels[0] == want[1] {
				lines = append(lines, fmt.Sprint(b.DefRange().Start.Line))
			}
		}
		if len(lines) > 1 {
			return fmt.Errorf("%s has %d %s %q blocks (lines %s): merge them first", filename, len(lines), want[0], want[1], strings.Join(lines, ", "))
		}
	}
	return nil
}

// writeBlock updates or appends block `typ "name"`.
func writeBlock(root *hclwrite.Body, typ, name string, values, running []placed, now time.Time) error {
	blk := root.FirstMatchingBlock(typ, []string{name})
	if blk == nil && typ == "deployment" {
		// A deployment block needs its flink_conf, which no source tells.
		return fmt.Errorf("there is no deployment %q block to write into: add it with its flink_conf first (ckptlint init writes one per Flink configuration), or name an existing one with --deployment", name)
	}
	if blk == nil {
		// A new block, rendered whole, after a blank line.
		var b strings.Builder
		b.WriteString(typ + " " + quote(name) + " {\n")
		for _, p := range values {
			b.WriteString(attrLine(1, p, now))
		}
		if len(running) > 0 {
			b.WriteString(runningBlock(1, running, now))
		}
		b.WriteString(factsBlocks(1, values, running, now))
		b.WriteString("}\n")
		toks := root.BuildTokens(nil)
		if n := len(toks); n > 0 && toks[n-1].Type == hclsyntax.TokenEOF {
			toks = toks[:n-1]
		}
		prefix := "\n"
		switch {
		case len(toks) == 0:
			prefix = ""
		case !endsWithNewline(toks):
			prefix = "\n\n"
		}
		lexed, err := lex(prefix + b.String())
		if err != nil {
			return err
		}
		root.AppendUnstructuredTokens(lexed)
		return nil
	}
	body := blk.Body()
	// The nested blocks (facts, running_checkpointing) are ckptlint's own:
	// they are taken out and put back after the attributes, rewritten when
	// this run has new facts for them, as they were otherwise.
	ks := kinds(values, running)
	var nested []string
	for _, nb := range body.Blocks() {
		labels := nb.Labels()
		switch {
		case nb.Type() == "running_checkpointing" && len(running) > 0:
		case nb.Type() == "facts" && len(labels) == 1 && slices.ContainsFunc(ks, func(k kindAttrs) bool { return string(k.kind) == labels[0] }):
		case nb.Type() == "facts" || nb.Type() == "running_checkpointing":
			var buf bytes.Buffer
			if _, err := nb.BuildTokens(nil).WriteTo(&buf); err != nil {
				return err
			}
			text := buf.String()
			if nb.Type() == "facts" && len(labels) == 1 {
				// Another source's facts block no longer vouches for
				// what this run wrote: each attribute has one source.
				text = dropAttrs(text, labels[0], written(values, running))
			}
			nested = append(nested, text)
		default:
			continue // not ours: left where it is
		}
		body.RemoveBlock(nb)
	}
	var tail strings.Builder
	for _, p := range values {
		if body.GetAttribute(p.Attr) != nil {
			if err := setAttr(body, p, now); err != nil {
				return err
			}
			continue
		}
		tail.WriteString(attrLine(1, p, now))
	}
	if len(running) > 0 {
		tail.WriteString(runningBlock(1, running, now))
	}
	for _, n := range nested {
		tail.WriteString(n)
	}
	for _, k := range ks {
		tail.WriteString(factsBlock(1, k, now))
	}
	return appendText(body, tail.String())
}

// setAttr replaces an existing attribute's value and line comment in place.
func setAttr(body *hclwrite.Body, p placed, now time.Time) error {
	attr := body.GetAttribute(p.Attr)
	val, err := lex("x = " + string(hclwrite.TokensForValue(p.Val).Bytes()) + "\n")
	if err != nil {
		return err
	}
	// Tokens of x = VALUE \n: drop the name, "=" and the final newline.
	expr := val[2 : len(val)-1]
	comment := comment(p, now)
	if lc := attr.LineComments(); len(lc) > 0 {
		body.SetAttributeRaw(p.Attr, expr)
		// The comment tokens are the tree's own: replacing their bytes
		// replaces the old comment, keeping its newline.
		nl := ""
		if bytes.HasSuffix(lc[len(lc)-1].Bytes, []byte("\n")) {
			nl = "\n"
		}
		lc[0].Bytes = []byte(comment + nl)
		lc[0].SpacesBefore = 1
		for _, tk := range lc[1:] {
			tk.Bytes, tk.SpacesBefore = nil, 0
		}
		return nil
	}
	expr = append(expr, &hclwrite.Token{Type: hclsyntax.TokenComment, Bytes: []byte(comment), SpacesBefore: 1})
	body.SetAttributeRaw(p.Attr, expr)
	return nil
}

// appendText appends HCL text at the end of a block's body, before its
// closing brace. An empty body ({}) gets a newline first; a one-line block
// with content is refused, since HCL allows only one argument on one line.
func appendText(body *hclwrite.Body, text string) error {
	toks := body.BuildTokens(nil)
	switch {
	case len(toks) == 0:
		text = "\n" + text
	case !endsWithNewline(toks):
		return errors.New("a block to write into is written on one line ({ a = 1 }): put its closing brace on a line of its own")
	}
	lexed, err := lex(text)
	if err != nil {
		return err
	}
	body.AppendUnstructuredTokens(lexed)
	return nil
}

func endsWithNewline(toks hclwrite.Tokens) bool {
	if len(toks) == 0 {
		return false
	}
	last := toks[len(toks)-1]
	return last.Type == hclsyntax.TokenNewline || (last.Type == hclsyntax.TokenComment && bytes.HasSuffix(last.Bytes, []byte("\n")))
}

// lex turns HCL text into hclwrite tokens, refusing text that does not parse.
func lex(text string) (hclwrite.Tokens, error) {
	f, diags := hclwrite.ParseConfig([]byte(text), "facts", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, fmt.Errorf("internal error: generated HCL does not parse: %s", diags.Error())
	}
	toks := f.BuildTokens(nil)
	// Drop the end-of-file token.
	if n := len(toks); n > 0 && toks[n-1].Type == hclsyntax.TokenEOF {
		toks = toks[:n-1]
	}
	return toks, nil
}

func indent(depth int) string { return strings.Repeat("  ", depth) }

func quote(s string) string { return string(hclwrite.TokensForValue(cty.StringVal(s)).Bytes()) }

func attrLine(depth int, p placed, now time.Time) string {
	return indent(depth) + p.Attr + " = " + string(hclwrite.TokensForValue(p.Val).Bytes()) + " " + comment(p, now) + "\n"
}

// comment is `# from <kind> <source>, <date>; <note>`, on one line whatever
// the source name holds.
func comment(p placed, now time.Time) string {
	c := fmt.Sprintf("# from %s %s, %s", p.obs.Kind, p.obs.Source(), now.Format(time.DateOnly))
	if p.Note != "" {
		c += "; " + p.Note
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029 {
			return ' '
		}
		return r
	}, c)
}

func runningBody(depth int, running []placed, now time.Time) string {
	var b strings.Builder
	b.WriteString("\n")
	for _, p := range running {
		b.WriteString(attrLine(depth, p, now))
	}
	return b.String()
}

func runningBlock(depth int, running []placed, now time.Time) string {
	return indent(depth) + "running_checkpointing {" + runningBody(depth+1, running, now) + indent(depth) + "}\n"
}

// kindAttrs is one source kind and the attributes it wrote in a block.
type kindAttrs struct {
	kind    Kind
	sources []string
	attrs   []string
}

func kinds(values, running []placed) []kindAttrs {
	var out []kindAttrs
	add := func(o *Observation, attr string) {
		i := slices.IndexFunc(out, func(k kindAttrs) bool { return k.kind == o.Kind })
		if i < 0 {
			out = append(out, kindAttrs{kind: o.Kind})
			i = len(out) - 1
		}
		if !slices.Contains(out[i].attrs, attr) {
			out[i].attrs = append(out[i].attrs, attr)
		}
		for _, s := range o.Sources {
			if !slices.Contains(out[i].sources, s) {
				out[i].sources = append(out[i].sources, s)
			}
		}
	}
	for _, p := range values {
		add(p.obs, p.Attr)
	}
	for _, p := range running {
		add(p.obs, "running_checkpointing")
	}
	return out
}

func factsBody(depth int, k kindAttrs, now time.Time) string {
	list := make([]cty.Value, len(k.attrs))
	for i, a := range k.attrs {
		list[i] = cty.StringVal(a)
	}
	in := indent(depth)
	return "\n" +
		in + "source      = " + quote(strings.Join(k.sources, ", ")) + "\n" +
		in + "observed_at = " + quote(now.Format(time.RFC3339)) + "\n" +
		in + "attributes  = " + string(hclwrite.TokensForValue(cty.ListVal(list)).Bytes()) + "\n"
}

func factsBlock(depth int, k kindAttrs, now time.Time) string {
	return indent(depth) + "facts " + quote(string(k.kind)) + " {" + factsBody(depth+1, k, now) + indent(depth) + "}\n"
}

func factsBlocks(depth int, values, running []placed, now time.Time) string {
	var b strings.Builder
	for _, k := range kinds(values, running) {
		b.WriteString(factsBlock(depth, k, now))
	}
	return b.String()
}

// moveFlinkFacts takes the Flink facts this run wrote into the deployment
// block out of the cluster block t.Cluster when `ckptlint facts` wrote them
// there (a facts block lists them): that is the old place, where they stood
// for every Flink cluster on the HDFS cluster. Values typed by hand stay;
// the deployment's own now wins for it. The notes say which, and which other
// deployments relied on the moved values.
func moveFlinkFacts(root *hclwrite.Body, src []byte, t Target, deployment []placed) ([]string, error) {
	var wrote []string
	for _, p := range deployment {
		if slices.Contains(flinkFacts, p.Attr) {
			wrote = append(wrote, p.Attr)
		}
	}
	if len(wrote) == 0 || t.Cluster == "" {
		return nil, nil
	}
	blk := root.FirstMatchingBlock("cluster", []string{t.Cluster})
	if blk == nil {
		return nil, nil
	}
	body := blk.Body()
	source := factsSources(body)
	var moved, typed []string
	var from *hclwrite.Block
	for _, a := range wrote {
		switch {
		case body.GetAttribute(a) == nil:
		case source[a] != nil:
			moved, from = append(moved, a), source[a]
		default:
			typed = append(typed, a)
		}
	}
	var notes []string
	if len(moved) > 0 {
		desc := factsDesc(from)
		if err := removeAttrs(body, moved); err != nil {
			return nil, err
		}
		notes = append(notes, movedNote(src, t, moved, desc))
	}
	if len(typed) > 0 {
		notes = append(notes, fmt.Sprintf("cluster %q still declares %s (typed, not observed): deployment %q now declares its own, which lint uses for it; the cluster's applies to the deployments that declare none",
			t.Cluster, strings.Join(typed, ", "), t.Deployment))
	}
	return notes, nil
}

// factsSources maps each attribute a facts block of body lists to that
// block (the last that lists it).
func factsSources(body *hclwrite.Body) map[string]*hclwrite.Block {
	source := map[string]*hclwrite.Block{}
	for _, nb := range body.Blocks() {
		if nb.Type() != "facts" || len(nb.Labels()) != 1 {
			continue
		}
		for _, a := range factsAttributes(nb) {
			source[a] = nb
		}
	}
	return source
}

// removeAttrs takes attrs out of body and out of its facts blocks, which
// are rewritten in their order after the attributes (one left with none
// goes).
func removeAttrs(body *hclwrite.Body, attrs []string) error {
	for _, a := range attrs {
		body.RemoveAttribute(a)
	}
	var texts []string
	for _, nb := range body.Blocks() {
		if nb.Type() != "facts" || len(nb.Labels()) != 1 {
			continue
		}
		var buf bytes.Buffer
		if _, err := nb.BuildTokens(nil).WriteTo(&buf); err != nil {
			return err
		}
		texts = append(texts, dropAttrs(buf.String(), nb.Labels()[0], attrs))
		body.RemoveBlock(nb)
	}
	if text := strings.Join(texts, ""); text != "" {
		return appendText(body, text)
	}
	return nil
}

// movedNote says which Flink facts left the cluster block and which other
// deployments used them.
func movedNote(src []byte, t Target, moved []string, desc string) string {
	note := fmt.Sprintf("moved %s out of cluster %q (%s): Flink facts belong to the deployment block of the Flink cluster they were read from",
		strings.Join(moved, ", "), t.Cluster, desc)
	others := deploymentsOn(src, t.Cluster, t.Deployment, moved)
	if len(others) == 0 {
		return note
	}
	var quoted []string
	for _, o := range others {
		quoted = append(quoted, fmt.Sprintf("%q", o))
	}
	verb := "no longer has them"
	if len(others) > 1 {
		verb = "no longer have them"
	}
	return note + fmt.Sprintf("; deployment %s %s: run ckptlint facts --deployment %s on its JobManager or FlinkDeployment",
		strings.Join(quoted, ", "), verb, strings.Join(others, "|"))
}

// factsAttributes is the attributes list of a facts block, nil when it
// cannot be read.
func factsAttributes(b *hclwrite.Block) []string {
	v, ok := literal(b, "attributes")
	if !ok || !v.CanIterateElements() {
		return nil
	}
	var out []string
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if e.Type() == cty.String && !e.IsNull() {
			out = append(out, e.AsString())
		}
	}
	return out
}

// factsDesc is `facts "jobmanager" from jm.json, 2026-11-01` for a facts block.
func factsDesc(b *hclwrite.Block) string {
	desc := fmt.Sprintf("facts %q", b.Labels()[0])
	if v, ok := literal(b, "source"); ok && v.Type() == cty.String {
		desc += " from " + v.AsString()
		if at, ok := literal(b, "observed_at"); ok && at.Type() == cty.String {
			if tm, err := time.Parse(time.RFC3339, at.AsString()); err == nil {
				desc += ", " + tm.Format(time.DateOnly)
			}
		}
	}
	return desc
}

// literal evaluates a block's attribute written as a literal value.
func literal(b *hclwrite.Block, name string) (cty.Value, bool) {
	a := b.Body().GetAttribute(name)
	if a == nil {
		return cty.NilVal, false
	}
	expr, diags := hclsyntax.ParseExpression(a.Expr().BuildTokens(nil).Bytes(), "facts", hcl.InitialPos)
	if diags.HasErrors() {
		return cty.NilVal, false
	}
	v, diags := expr.Value(nil)
	if diags.HasErrors() || !v.IsWhollyKnown() || v.IsNull() {
		return cty.NilVal, false
	}
	return v, true
}

// deploymentsOn names the deployment blocks of src other than except that
// run on cluster (they name it, or it is the file's only cluster block) and
// set none of attrs themselves: the ones that used the cluster's values.
func deploymentsOn(src []byte, cluster, except string, attrs []string) []string {
	file, diags := hclsyntax.ParseConfig(src, "", hcl.InitialPos)
	if diags.HasErrors() {
		return nil
	}
	body, _ := file.Body.(*hclsyntax.Body)
	if body == nil {
		return nil
	}
	only := len(BlockNames(src, "cluster")) == 1
	var out []string
	for _, b := range body.Blocks {
		if b.Type != "deployment" || len(b.Labels) != 1 || b.Labels[0] == except {
			continue
		}
		on := only
		if a, ok := b.Body.Attributes["cluster"]; ok {
			v, d := a.Expr.Value(nil)
			on = !d.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() && v.AsString() == cluster
		}
		own := slices.ContainsFunc(attrs, func(a string) bool { _, ok := b.Body.Attributes[a]; return ok })
		if on && !own {
			out = append(out, b.Labels[0])
		}
	}
	return out
}

// DeploymentCluster is the cluster a deployment block of src names, "" when
// it names none (or src does not parse).
func DeploymentCluster(src []byte, deployment string) string {
	file, diags := hclsyntax.ParseConfig(src, "", hcl.InitialPos)
	if diags.HasErrors() {
		return ""
	}
	body, _ := file.Body.(*hclsyntax.Body)
	if body == nil {
		return ""
	}
	for _, b := range body.Blocks {
		if b.Type != "deployment" || len(b.Labels) != 1 || b.Labels[0] != deployment {
			continue
		}
		if a, ok := b.Body.Attributes["cluster"]; ok {
			if v, d := a.Expr.Value(nil); !d.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
				return v.AsString()
			}
		}
	}
	return ""
}

// BlockNames returns the labels of the top-level blocks of type typ in src,
// in file order; nil when src does not parse.
func BlockNames(src []byte, typ string) []string {
	file, diags := hclsyntax.ParseConfig(src, "", hcl.InitialPos)
	if diags.HasErrors() {
		return nil
	}
	body, _ := file.Body.(*hclsyntax.Body)
	if body == nil {
		return nil
	}
	var out []string
	for _, b := range body.Blocks {
		if b.Type == typ && len(b.Labels) == 1 {
			out = append(out, b.Labels[0])
		}
	}
	return out
}

// written is the attribute names a run writes into a block, as facts
// blocks list them.
func written(values, running []placed) []string {
	var out []string
	for _, p := range values {
		out = append(out, p.Attr)
	}
	if len(running) > 0 {
		out = append(out, "running_checkpointing")
	}
	return out
}

// dropAttrs rewrites the text of another kind's facts block without the
// attributes in drop; the block goes when none is left. Text it cannot
// read is kept as it is.
func dropAttrs(text, kind string, drop []string) string {
	file, diags := hclsyntax.ParseConfig([]byte(text), "facts", hcl.InitialPos)
	if diags.HasErrors() {
		return text
	}
	body := file.Body.(*hclsyntax.Body)
	if len(body.Blocks) != 1 {
		return text
	}
	attrs := body.Blocks[0].Body.Attributes
	get := func(name string) (cty.Value, bool) {
		a, ok := attrs[name]
		if !ok {
			return cty.NilVal, false
		}
		v, d := a.Expr.Value(nil)
		return v, !d.HasErrors() && v.IsWhollyKnown() && !v.IsNull()
	}
	src, ok1 := get("source")
	at, ok2 := get("observed_at")
	list, ok3 := get("attributes")
	if !ok1 || !ok2 || !ok3 || src.Type() != cty.String || at.Type() != cty.String || !list.CanIterateElements() {
		return text
	}
	var keep []string
	changed := false
	for it := list.ElementIterator(); it.Next(); {
		_, v := it.Element()
		if v.Type() != cty.String || v.IsNull() {
			return text
		}
		if slices.Contains(drop, v.AsString()) {
			changed = true
			continue
		}
		keep = append(keep, v.AsString())
	}
	switch {
	case !changed:
		return text
	case len(keep) == 0:
		return ""
	}
	t, err := time.Parse(time.RFC3339, at.AsString())
	if err != nil {
		return text
	}
	return factsBlock(1, kindAttrs{kind: Kind(kind), sources: []string{src.AsString()}, attrs: keep}, t)
}

// larger reports whether whole number a is larger than b.
func larger(a, b cty.Value) bool {
	if a.Type() != cty.Number || b.Type() != cty.Number || !a.IsKnown() || !b.IsKnown() || a.IsNull() || b.IsNull() {
		return false
	}
	return a.GreaterThan(b).True()
}
