package facts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"

	"github.com/ckptlint/ckptlint/internal/safetext"
)

// Kind is a source kind, the label of the `facts "<kind>"` block.
type Kind string

// The source kinds (the contract of docs/facts.md and docs/config.md).
const (
	NameNode   Kind = "namenode"   // NameNode JMX JSON (NameNodeInfo, FSNamesystemState)
	DFSAdmin   Kind = "dfsadmin"   // `hdfs dfsadmin -report` text
	JobManager Kind = "jobmanager" // Flink REST: /overview, /jobs/<id>/checkpoints, /jobs/<id>/checkpoints/config, .../checkpoints/details/<cid>/subtasks/<vertex>
	Kubectl    Kind = "kubectl"    // `kubectl get flinkdeployment -o yaml`
)

// Value is one attribute value to write.
type Value struct {
	Attr string
	Val  cty.Value // a whole number, string or bool
	// Note is added to the value's comment after the source and date: the
	// distribution a capacity value was chosen from, the field it came from.
	Note string
}

// Observation is what one source kind said: the values for the cluster
// block, the deployment block and the deployment's running_checkpointing
// block. Sources lists the URLs or file names it was read from.
type Observation struct {
	Kind       Kind
	Sources    []string
	Cluster    []Value
	Deployment []Value
	// Running is the running job's checkpoint configuration (the
	// running_checkpointing block), nil when not read.
	Running []Value
}

// Source is the display form of the observation's sources.
func (o *Observation) Source() string { return strings.Join(o.Sources, ", ") }

// Parse detects which source data is and parses it. name is the file name
// or URL shown in errors and written into the facts block.
func Parse(name string, data []byte) (*Observation, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, fmt.Errorf("%s: empty input: expected NameNode JMX JSON, `hdfs dfsadmin -report` output, a Flink REST response or `kubectl get flinkdeployment -o yaml|json` output", name)
	}
	var o *Observation
	var err error
	if trimmed[0] == '{' || trimmed[0] == '[' {
		o, err = parseJSON(trimmed)
	} else if looksLikeDFSAdmin(trimmed) {
		o, err = parseDFSAdmin(trimmed)
	} else {
		o, err = parseKubectl(trimmed)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	o.Sources = []string{name}
	return o, nil
}

// parseJSON tells the JSON sources apart by their top-level fields.
func parseJSON(data []byte) (*Observation, error) {
	var top map[string]json.RawMessage
	if err := decodeJSON(data, &top); err != nil {
		return nil, err
	}
	has := func(keys ...string) bool {
		for _, k := range keys {
			if _, ok := top[k]; !ok {
				return false
			}
		}
		return true
	}
	switch {
	case has("beans"):
		return parseJMX(data)
	case has("taskmanagers", "slots-total"):
		return parseOverview(data)
	case has("counts", "summary"):
		return parseCheckpoints(data)
	case has("interval", "timeout", "max_concurrent"):
		return parseCheckpointConfig(data)
	case has("kind") && (string(top["kind"]) == `"FlinkDeployment"` || string(top["kind"]) == `"List"`):
		// kubectl get flinkdeployment NAME -o json
		var doc map[string]any
		if err := decodeJSON(data, &doc); err != nil {
			return nil, err
		}
		return parseKubectlDoc(doc)
	case has("subtasks", "num_subtasks"):
		return parseSubtaskCheckpoint(data)
	case has("errors"):
		return nil, fmt.Errorf("the response is an error document: %s", clip(string(data), 200))
	}
	keys := make([]string, 0, len(top))
	for k := range top {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return nil, fmt.Errorf("JSON with fields %s is none of the known sources: expected NameNode JMX (\"beans\"), Flink /overview (\"taskmanagers\", \"slots-total\"), /jobs/<id>/checkpoints (\"counts\", \"summary\"), /jobs/<id>/checkpoints/config (\"interval\", \"timeout\", \"max_concurrent\"), /jobs/<id>/checkpoints/details/<checkpoint>/subtasks/<vertex> (\"subtasks\", \"num_subtasks\") or kubectl get flinkdeployment -o json (\"kind\": \"FlinkDeployment\")",
		clip(strings.Join(keys, ", "), 200))
}

// decodeJSON decodes one JSON document and refuses trailing data, so a
// truncated or concatenated response is an error rather than half a fact.
func decodeJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("malformed JSON: %s", jsonReason(err, data))
	}
	if dec.More() {
		return errors.New("malformed JSON: data after the end of the document")
	}
	return nil
}

func jsonReason(err error, data []byte) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%v at byte %d", se, se.Offset)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Sprintf("the document ends after %d bytes, in the middle of a value (truncated?)", len(data))
	}
	return err.Error()
}

// clip is what an error message quotes of a response: the server's text,
// printed on standard error and kept in CI logs, so at most n bytes of it,
// cut on a character boundary and marked "…", on one line with visible
// escapes (safetext.Text): an escape sequence or a workflow command in it
// reaches neither a terminal nor the runner.
func clip(s string, n int) string {
	if len(s) <= n {
		return safetext.Text(s)
	}
	cut := n
	for cut > 0 && cut > n-utf8.UTFMax && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if !utf8.RuneStart(s[cut]) {
		cut = n // not UTF-8 there: Text shows the bytes
	}
	return safetext.Text(s[:cut]) + "…"
}

// num reads a JSON number (json.Number, or a string holding one, as Jackson
// writes NaN) as a float; ok is false when absent, null or not a number.
func num(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil && f == f
	}
	return 0, false
}

// whole reads a JSON whole number.
func whole(v any) (int64, bool) {
	if n, ok := v.(json.Number); ok {
		if i, err := n.Int64(); err == nil {
			return i, true
		}
	}
	f, ok := num(v)
	if !ok || f != float64(int64(f)) {
		return 0, false
	}
	return int64(f), true
}

func intValue(attr string, n int64, note string) Value {
	return Value{Attr: attr, Val: cty.NumberIntVal(n), Note: note}
}

func strValue(attr, s, note string) Value {
	return Value{Attr: attr, Val: cty.StringVal(s), Note: note}
}

// distribution is "min A / median B / max C over N DataNodes".
func distribution(xs []int64, format func(int64) string) string {
	s := slices.Clone(xs)
	slices.Sort(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return fmt.Sprintf("min/median/max %s / %s / %s", format(s[0]), format(med), format(s[len(s)-1]))
}

// Millis formats a millisecond count as a Flink duration string that
// .ckptlint.hcl's duration attributes read back exactly: whole minutes as
// "3m", whole seconds as "41s", else "41230ms".
func Millis(ms int64) string {
	switch {
	case ms != 0 && ms%60000 == 0:
		return strconv.FormatInt(ms/60000, 10) + "m"
	case ms%1000 == 0:
		return strconv.FormatInt(ms/1000, 10) + "s"
	}
	return strconv.FormatInt(ms, 10) + "ms"
}

// HumanBytes is a byte count in binary units for comments ("43.2 GiB").
func HumanBytes(n int64) string {
	const unit = 1024
	if n < unit && n > -unit {
		return fmt.Sprintf("%d B", n)
	}
	f, exp := float64(n), 0
	for f >= unit*unit || f <= -unit*unit {
		f /= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", f/unit, "KMGTPE"[exp])
}
