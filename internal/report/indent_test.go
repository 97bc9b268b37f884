package report

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzIndentJSON holds indentJSON to json.Indent on every document
// json.Marshal could write (any valid JSON, compacted).
func FuzzIndentJSON(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[],"b":{},"c":[1,{"d":"e\"f\\"}],"g":null}`, `"x"`, `[[[]]]`,
		`{"message":"a \"quoted\" value: 1, 2 [3] {4}","edits":[{"start":1,"end":2}]}`, `{"k":"\u2028\\\\"}`} {
		f.Add(s, "    ")
	}
	f.Fuzz(func(t *testing.T, doc, prefix string) {
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(doc)); err != nil {
			return
		}
		var want bytes.Buffer
		if err := json.Indent(&want, compact.Bytes(), prefix, "  "); err != nil {
			t.Fatal(err)
		}
		if got := indentJSON(nil, compact.Bytes(), prefix, "  "); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%q:\n got %q\nwant %q", compact.Bytes(), got, want.Bytes())
		}
	})
}
