package report

import (
	"encoding/json"
	"io"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/safetext"
)

// JSONSchemaVersion versions the JSON output; see docs/output.md.
const JSONSchemaVersion = 1

// jsonDoc is the document's head: what comes before its findings, which
// the streamer writes one by one (jsonStreamer).
type jsonDoc struct {
	Schema  int         `json:"schema"`
	Version string      `json:"version"`
	Summary jsonSummary `json:"summary"`
}

type jsonSummary struct {
	Sets       int `json:"config_sets"`
	Files      int `json:"files"`
	Errors     int `json:"errors"`
	Warnings   int `json:"warnings"`
	Infos      int `json:"infos"`
	Suppressed int `json:"suppressed"`
}

// JSON writes the stable, documented JSON form: the summary, then
// "findings" and "suppressed", the findings inline ignores silenced, each
// with its suppression (kind, reason, file and line of the comment).
// The findings keep the order of r's lists.
func JSON(w io.Writer, r Result) error {
	st := newJSONStreamer(r, Options{})
	if err := st.Group(Group{Findings: r.Findings, Suppressed: r.Suppressed}); err != nil {
		st.Discard()
		return err
	}
	return st.Close(w, r)
}

// jsonStreamer writes the JSON document group by group: each finding is
// encoded as it comes and spooled (Spool), the findings and the suppressed
// findings apart, until the summary that heads the document is known. The
// bytes are those json.Encoder writes for the whole document with a
// two-space indent (each element is indented as it sits, two levels
// deep), so the document is as it was when it was rendered at once.
type jsonStreamer struct {
	found, suppressed       *Spool
	nFound, nSuppressed     int
	errors, warnings, infos int
	buf                     []byte
}

func newJSONStreamer(Result, Options) Streamer {
	return &jsonStreamer{found: NewSpool(), suppressed: NewSpool()}
}

func (s *jsonStreamer) Group(g Group) error {
	for _, f := range g.Findings {
		switch f.Severity {
		case finding.Error:
			s.errors++
		case finding.Warning:
			s.warnings++
		case finding.Info:
			s.infos++
		}
		if err := s.element(s.found, &s.nFound, f); err != nil {
			return err
		}
	}
	for _, f := range g.Suppressed {
		if err := s.element(s.suppressed, &s.nSuppressed, f); err != nil {
			return err
		}
	}
	return nil
}

// element spools one array element: a comma after the one before it, a
// line break and the element at the array's indent.
func (s *jsonStreamer) element(sp *Spool, n *int, f finding.Finding) error {
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	s.buf = s.buf[:0]
	if *n > 0 {
		s.buf = append(s.buf, ',')
	}
	s.buf = indentJSON(append(append(s.buf, '\n'), jsonElemIndent...), b, jsonElemIndent, "  ")
	*n++
	_, err = sp.Write(s.buf)
	return err
}

// jsonElemIndent is the indent of an element of the document's arrays.
const jsonElemIndent = "    "

func (s *jsonStreamer) Discard() {
	s.found.Close()
	s.suppressed.Close()
}

// Close writes the document to w through safetext's JSON guard: the head
// with the summary, then the spooled arrays.
func (s *jsonStreamer) Close(w io.Writer, tail Result) error {
	defer s.Discard()
	g := safetext.NewJSONWriter(w)
	head, err := json.MarshalIndent(jsonDoc{Schema: JSONSchemaVersion, Version: tail.Version,
		Summary: jsonSummary{Sets: tail.Sets, Files: tail.Files, Errors: s.errors, Warnings: s.warnings, Infos: s.infos,
			Suppressed: s.nSuppressed}}, "", "  ")
	if err != nil {
		return err
	}
	// The head without its closing brace; the arrays follow as members.
	if _, err := g.Write(head[:len(head)-2]); err != nil {
		return err
	}
	for _, a := range []struct {
		name string
		sp   *Spool
		n    int
	}{{"findings", s.found, s.nFound}, {"suppressed", s.suppressed, s.nSuppressed}} {
		if _, err := io.WriteString(g, ",\n  \""+a.name+"\": ["); err != nil {
			return err
		}
		if a.n == 0 {
			if _, err := io.WriteString(g, "]"); err != nil {
				return err
			}
			continue
		}
		if err := a.sp.CopyTo(g); err != nil {
			return err
		}
		if _, err := io.WriteString(g, "\n  ]"); err != nil {
			return err
		}
	}
	if _, err := io.WriteString(g, "\n}\n"); err != nil {
		return err
	}
	return g.Flush()
}
