package report

import (
	"bufio"
	"bytes"
	"cmp"
	"container/heap"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/safetext"
)

// SARIF writes a SARIF 2.1.0 log with one run: every loaded rule in
// tool.driver.rules, every finding as a result, and every suppressed
// finding as a result with an inSource suppression (as GitHub code scanning
// expects). Columns are Unicode code points. The results are sorted by
// finding.Compare over the whole run, the findings before the suppressed
// findings they tie with.
func SARIF(w io.Writer, r Result) error {
	st := newSARIFStreamer(r, Options{})
	if err := st.Group(Group{Findings: r.Findings, Suppressed: r.Suppressed, Sources: r.Sources}); err != nil {
		st.Discard()
		return err
	}
	return st.Close(w, r)
}

// sarifStreamer writes the SARIF log group by group, with the bytes the
// log had when it was encoded at once (encodeJSON of the whole log), from
// three things only the end knows:
//
//   - the order of the results: sorted over the whole run (finding.Compare,
//     stable, the findings before the suppressed findings). Each group's
//     results are sorted as they come and spooled with their sort key; the
//     groups are runs of that order (a set's results are in its files,
//     and the sets come in the order of their paths) that Close merges, and
//     consecutive groups in order are one run, so a tree whose sets do not
//     share files is one run, copied as it was spooled;
//   - a result's ruleIndex when its rule is not one of the run's rules:
//     such rules are listed after them, in the order the findings, then the
//     suppressed findings, first name them (Result.rules);
//   - whether a result's fingerprint collides with another's, when it takes
//     the full one (setFingerprints): the streamer counts the fingerprints
//     (16 bytes each) and spools both forms.
//
// What a group keeps after it is rendered is that and the last result's
// sort key: not its files' bytes (its code point columns are computed as it
// comes), nor its findings.
type sarifStreamer struct {
	head  Result
	spool *Spool
	runs  []int64 // where each run of results starts in spool
	n     int     // results spooled
	last  sarifKey
	// unlisted are the first finding, then the first suppressed finding,
	// of each rule head.Rules does not list, in the order they come.
	listed              map[string]bool
	unFound, unSup      []finding.Finding
	seenFound, seenSupp map[string]bool
	fps                 map[[16]byte]int32 // results per short fingerprint
	rec, el             []byte
}

// sarifElemIndent is the indent of a result: runs[0].results[i].
const sarifElemIndent = "        "

// The places in a rendered result that Close fills in: its ruleIndex,
// spooled as 0, and its fingerprint, spooled as sarifNoFingerprint. A
// raw line break is never inside a JSON string and the indent says the
// depth, so the first match of each is the member itself.
var (
	sarifIndexAt       = []byte("\n" + sarifElemIndent + `  "ruleIndex": `)
	sarifFingerprintAt = []byte("\n" + sarifElemIndent + `  "partialFingerprints": {` + "\n" + sarifElemIndent + `    "` + fingerprintKey + `": "`)
	sarifNoFingerprint = strings.Repeat("0", 32)
	// sarifResultsAt is where the results go in the log encoded without
	// them.
	sarifResultsAt = []byte("\n      \"results\": []")
)

func newSARIFStreamer(head Result, _ Options) Streamer {
	s := &sarifStreamer{head: head, spool: NewSpool(), listed: map[string]bool{}, seenFound: map[string]bool{},
		seenSupp: map[string]bool{}, fps: map[[16]byte]int32{}}
	for _, ru := range head.Rules {
		s.listed[ru.ID] = true
	}
	return s
}

// sarifKey is the sort key of a result: finding.Compare's fields, then
// whether it is suppressed. Between runs, ties go to the earlier run, whose
// groups come first.
type sarifKey struct {
	file, rule, msg, detail, set []byte
	line, col                    int
	suppressed                   bool
}

func (a *sarifKey) compare(b *sarifKey) int {
	c := cmp.Or(bytes.Compare(a.file, b.file), cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col),
		bytes.Compare(a.rule, b.rule), bytes.Compare(a.msg, b.msg), bytes.Compare(a.detail, b.detail),
		bytes.Compare(a.set, b.set))
	if c != 0 {
		return c
	}
	switch {
	case a.suppressed == b.suppressed:
		return 0
	case b.suppressed:
		return -1
	}
	return 1
}

func keyOf(f finding.Finding, suppressed bool) sarifKey {
	return sarifKey{file: []byte(f.Range.File), rule: []byte(f.RuleID), msg: []byte(f.Message), detail: []byte(f.Detail),
		set: []byte(f.ConfigSet), line: f.Range.Start.Line, col: f.Range.Start.Col, suppressed: suppressed}
}

type sarifItem struct {
	f          finding.Finding
	edits      []finding.Replacement
	suppressed bool
}

func (s *sarifStreamer) Group(g Group) error {
	s.noteUnlisted(g)
	items := make([]sarifItem, 0, len(g.Findings)+len(g.Suppressed))
	for _, f := range g.Findings {
		items = append(items, sarifItem{f: f, edits: f.Edits})
	}
	for _, f := range g.Suppressed {
		items = append(items, sarifItem{f: f, suppressed: true})
	}
	slices.SortStableFunc(items, func(a, b sarifItem) int { return finding.Compare(a.f, b.f) })
	if len(items) == 0 {
		return nil
	}
	// The group goes on the run before it when its first result sorts
	// after that run's last (a tie goes to the earlier group).
	if first := keyOf(items[0].f, items[0].suppressed); s.n == 0 || first.compare(&s.last) < 0 {
		s.runs = append(s.runs, s.spool.Len())
	}
	cols := newColumns(g.Sources)
	for _, it := range items {
		if err := s.result(cols, it); err != nil {
			return err
		}
	}
	it := items[len(items)-1]
	s.last = keyOf(it.f, it.suppressed)
	return nil
}

// noteUnlisted notes the first finding and suppressed finding of each rule
// head.Rules does not list.
func (s *sarifStreamer) noteUnlisted(g Group) {
	for _, l := range []struct {
		fs   []finding.Finding
		seen map[string]bool
		out  *[]finding.Finding
	}{{g.Findings, s.seenFound, &s.unFound}, {g.Suppressed, s.seenSupp, &s.unSup}} {
		for _, f := range l.fs {
			if !s.listed[f.RuleID] && !l.seen[f.RuleID] {
				l.seen[f.RuleID] = true
				*l.out = append(*l.out, f)
			}
		}
	}
}

// result renders one result and spools it as a record: its sort key, its
// two fingerprints, where its ruleIndex and fingerprint go, and its bytes.
func (s *sarifStreamer) result(cols *columns, it sarifItem) error {
	r, f := s.head, it.f
	res := sarifResult{
		RuleID: f.RuleID, Level: sarifLevel(f.Severity),
		Message:             sarifMessage(f),
		Locations:           []sarifLocation{r.sarifLocation(cols, f.Range.File, f.Range.Span)},
		PartialFingerprints: map[string]string{fingerprintKey: sarifNoFingerprint},
	}
	if f.ConfigSet != "" || len(f.Fix) > 0 {
		res.Properties = &sarifResultProps{ConfigSet: f.ConfigSet, Fix: f.Fix}
	}
	if len(it.edits) > 0 && len(f.Fix) > 0 {
		res.Fixes = []sarifFix{r.sarifFixOf(cols, f, it.edits)}
	}
	if sp := f.Suppression; sp != nil {
		sup := sarifSuppression{Kind: "inSource", Status: "accepted", Justification: sp.Reason}
		if sp.File != "" && sp.Line > 0 {
			sup.Location = &sarifLocation{PhysicalLocation: sarifPhysical{
				ArtifactLocation: r.sarifArtifactOf(sp.File), Region: &sarifRegion{StartLine: sp.Line}}}
		}
		res.Suppressions = []sarifSuppression{sup}
	}
	compact, err := compactJSON(res, false)
	if err != nil {
		return err
	}
	s.el = indentJSON(s.el[:0], compact, sarifElemIndent, "  ")
	idx := bytes.Index(s.el, sarifIndexAt)
	fp := bytes.Index(s.el, sarifFingerprintAt)
	if idx < 0 || fp < 0 {
		return errors.New("sarif: result rendered without its ruleIndex or fingerprint") // a bug
	}
	idx += len(sarifIndexAt)
	fp += len(sarifFingerprintAt)

	p, _ := r.repoPath(f.Range.File)
	short, full := fingerprintSums(f, p)
	s.fps[short]++

	b := s.rec[:0]
	for _, v := range [][]byte{[]byte(f.Range.File), []byte(f.RuleID), []byte(f.Message), []byte(f.Detail), []byte(f.ConfigSet)} {
		b = binary.AppendUvarint(b, uint64(len(v)))
		b = append(b, v...)
	}
	b = binary.AppendVarint(b, int64(f.Range.Start.Line))
	b = binary.AppendVarint(b, int64(f.Range.Start.Col))
	if it.suppressed {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = append(append(b, short[:]...), full[:]...)
	b = binary.AppendUvarint(b, uint64(idx))
	b = binary.AppendUvarint(b, uint64(fp))
	b = append(b, s.el...)
	// The record's length heads it.
	var n [binary.MaxVarintLen64]byte
	if _, err := s.spool.Write(n[:binary.PutUvarint(n[:], uint64(len(b)))]); err != nil {
		return err
	}
	s.rec = b
	s.n++
	_, err = s.spool.Write(b)
	return err
}

func (s *sarifStreamer) Discard() { s.spool.Close() }

// Close writes the log to w through safetext's JSON guard: the log encoded
// without its results, and the spooled results, merged, in it.
func (s *sarifStreamer) Close(w io.Writer, tail Result) error {
	defer s.Discard()
	rules, idx := Result{Rules: s.head.Rules, Disabled: s.head.Disabled, Findings: s.unFound, Suppressed: s.unSup}.rules()
	log := sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{{
		Tool: sarifTool{Driver: sarifDriver{Name: toolName, Version: tail.Version, InformationURI: toolInfoURI,
			Rules: make([]sarifRule, 0, len(rules))}},
		Results:    []sarifResult{},
		ColumnKind: sarifColumnsKind,
	}}}
	for _, ru := range rules {
		log.Runs[0].Tool.Driver.Rules = append(log.Runs[0].Tool.Driver.Rules, sarifRuleOf(ru))
	}
	doc, err := indentedJSON(log, false)
	if err != nil {
		return err
	}
	at := bytes.Index(doc, sarifResultsAt)
	if at < 0 {
		return errors.New("sarif: log encoded without its results") // a bug
	}
	at += len(sarifResultsAt) - 1 // before the closing bracket
	g := safetext.NewJSONWriter(w)
	if _, err := g.Write(doc[:at]); err != nil {
		return err
	}
	if s.n > 0 {
		if err := s.merge(g, idx); err != nil {
			return err
		}
		if _, err := io.WriteString(g, "\n      "); err != nil {
			return err
		}
	}
	if _, err := g.Write(doc[at:]); err != nil {
		return err
	}
	return g.Flush()
}

// sarifRecord is a spooled result, read back.
type sarifRecord struct {
	key         sarifKey
	short, full []byte
	idxAt, fpAt int
	el          []byte
}

// sarifRunReader reads the records of one run.
type sarifRunReader struct {
	r   *bufio.Reader
	buf []byte
	rec sarifRecord
	run int
}

var errSARIFRecord = errors.New("sarif: spooled result cut short") // a bug, or the spool's file changed

// maxSARIFRecord bounds a spooled result read back: a result's strings
// are clipped before they are rendered (finding.Bounded), so a longer
// length read from the spool is not one this streamer wrote.
const maxSARIFRecord = 64 << 20

// next reads the run's next record; false at its end.
func (rr *sarifRunReader) next() (bool, error) {
	n, err := binary.ReadUvarint(rr.r)
	if errors.Is(err, io.EOF) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if n > maxSARIFRecord {
		return false, errSARIFRecord // not a record this streamer wrote: the spool's file changed
	}
	if uint64(cap(rr.buf)) < n {
		rr.buf = make([]byte, n)
	}
	rr.buf = rr.buf[:n]
	if _, err := io.ReadFull(rr.r, rr.buf); err != nil {
		return false, err
	}
	b, ok := rr.buf, true
	bytesOf := func() []byte {
		l, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < l { //nolint:gosec // G115: 0 < k <= len(b)
			ok = false
			return nil
		}
		end := k + int(l) //nolint:gosec // G115: l <= len(b)-k, checked above
		v := b[k:end]
		b = b[end:]
		return v
	}
	intOf := func() int {
		v, k := binary.Varint(b)
		if k <= 0 {
			ok = false
			return 0
		}
		b = b[k:]
		return int(v)
	}
	k := &rr.rec.key
	k.file, k.rule, k.msg, k.detail, k.set = bytesOf(), bytesOf(), bytesOf(), bytesOf(), bytesOf()
	k.line, k.col = intOf(), intOf()
	if !ok || len(b) < 33 {
		return false, errSARIFRecord
	}
	k.suppressed = b[0] == 1
	rr.rec.short, rr.rec.full, b = b[1:17], b[17:33], b[33:]
	idx, fp := uvarintOf(&b, &ok), uvarintOf(&b, &ok)
	if !ok || idx > fp || fp > uint64(len(b)) {
		return false, errSARIFRecord
	}
	idxAt, fpAt := int(idx), int(fp) //nolint:gosec // G115: idx <= fp <= len(b), checked above
	if fpAt+32 > len(b) || idxAt < 1 {
		return false, errSARIFRecord
	}
	rr.rec.idxAt, rr.rec.fpAt, rr.rec.el = idxAt, fpAt, b
	return true, nil
}

func uvarintOf(b *[]byte, ok *bool) uint64 {
	v, k := binary.Uvarint(*b)
	if k <= 0 {
		*ok = false
		return 0
	}
	*b = (*b)[k:]
	return v
}

// sarifHeads is the merge's heap: each run's next record.
type sarifHeads []*sarifRunReader

func (h sarifHeads) Len() int { return len(h) }
func (h sarifHeads) Less(i, j int) bool {
	if c := h[i].rec.key.compare(&h[j].rec.key); c != 0 {
		return c < 0
	}
	return h[i].run < h[j].run
}
func (h sarifHeads) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *sarifHeads) Push(x any)   { *h = append(*h, x.(*sarifRunReader)) }
func (h *sarifHeads) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// merge writes the spooled results in order, each with its ruleIndex and
// fingerprint, as the elements of the results array.
func (s *sarifStreamer) merge(w io.Writer, idx map[string]int) error {
	end := s.spool.Len()
	// The runs' read buffers share a few MiB: one run (most trees) reads
	// with 64 KiB.
	size := min(max((4<<20)/len(s.runs), 4<<10), 64<<10)
	var heads sarifHeads
	for i, off := range s.runs {
		next := end
		if i+1 < len(s.runs) {
			next = s.runs[i+1]
		}
		sec, err := s.spool.Section(off, next-off)
		if err != nil {
			return err
		}
		rr := &sarifRunReader{r: bufio.NewReaderSize(sec, size), run: i}
		ok, err := rr.next()
		if err != nil {
			return err
		}
		if ok {
			heads = append(heads, rr)
		}
	}
	heap.Init(&heads)
	var out []byte
	var hexFP [32]byte
	for n := 0; len(heads) > 0; n++ {
		rr := heads[0]
		rec := &rr.rec
		out = out[:0]
		if n > 0 {
			out = append(out, ',')
		}
		out = append(append(out, '\n'), sarifElemIndent...)
		out = append(out, rec.el[:rec.idxAt]...)
		out = strconv.AppendInt(out, int64(idx[string(rec.key.rule)]), 10)
		out = append(out, rec.el[rec.idxAt+1:rec.fpAt]...)
		fp := rec.short
		if s.fps[[16]byte(fp)] > 1 {
			fp = rec.full
		}
		hex.Encode(hexFP[:], fp)
		out = append(out, hexFP[:]...)
		out = append(out, rec.el[rec.fpAt+32:]...)
		if _, err := w.Write(out); err != nil {
			return err
		}
		ok, err := rr.next()
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(&heads, 0)
		} else {
			heap.Pop(&heads)
		}
	}
	return nil
}
