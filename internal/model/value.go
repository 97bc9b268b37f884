package model

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/units"
)

// Value is one effective setting as it goes into input.effective.
type Value struct {
	Value   any    // typed: int64 ms for durations, int64 bytes for sizes, int, bool, string; nil when unset
	Display string // human rendering of Value ("10 min", "128 MiB")
	Raw     string // the text as written, "" for defaults
	Key     string // the key that supplied it ("" for a default)
	Source  string // "file", "flink.hadoop", "cluster-config", "default" or "unset"
	File    string
	Loc     *Loc
	Error   string // why Raw could not be read; Value then holds the default
	// Deprecated is set when Key is a deprecated spelling on this version.
	Deprecated bool
	// Final marks a Hadoop value locked with <final>true</final>.
	Final bool
	// Chain says how the file holding the value reaches the processes
	// (Resource.Chain), "" when the file is the processes' own.
	Chain string
	// Template marks an unrendered template placeholder (ERB, Jinja, Helm):
	// Value then holds the default.
	Template bool
	// Unknown says why the value is not known (a Hadoop value that refers
	// to an external entity); Template is then set too and Value holds
	// the default.
	Unknown string
	// Lenient marks an Error of a release before 1.10, which reads the text
	// without refusing it: Value is what it makes of it (false for a
	// boolean that is not "true") or the default (lenientError).
	Lenient bool
	// Varies says how a default differs between Hadoop releases, when it
	// does and the Hadoop version is not known (or not one the Hadoop key
	// table covers): "10000 from Hadoop 3.0 (HDFS-5517); 1048576 in 2.1 to
	// 2.x (HDFS-4305)". Value then holds the newest release's default.
	Varies string
}

// toInput builds the effective value object directly as an OPA value, its
// loc from lm. A
// value without a location (a default, an unset key) is the same on every
// set of a version, so its object is built once and shared: OPA values are
// not changed once built.
func (v *Value) toInput(lm locs) ast.Value {
	if v.Loc != nil || !scalar(v.Value) {
		return v.object(lm)
	}
	valueCache.RLock()
	o, ok := valueCache.m[*v]
	valueCache.RUnlock()
	if ok {
		return o
	}
	o = v.object(nil)
	valueCache.Lock()
	if len(valueCache.m) < 4096 { // defaults: a few hundred per version
		valueCache.m[*v] = o
	}
	valueCache.Unlock()
	return o
}

// valueCache holds the objects of the values without a location, by value.
var valueCache = struct {
	sync.RWMutex
	m map[Value]ast.Value
}{m: map[Value]ast.Value{}}

// scalar reports whether x is one of the comparable values a Value holds,
// so a Value holding it can be a map key.
func scalar(x any) bool {
	switch x.(type) {
	case nil, bool, int, int64, string:
		return true
	}
	return false
}

func (v *Value) object(lm locs) ast.Value {
	kv := make([][2]*ast.Term, 0, 8)
	kv = append(kv,
		ast.Item(key("value"), anyTerm(v.Value)), // Value holds only int64, int, bool, string or nil
		ast.Item(key("set"), ast.InternedTerm(v.Source != "default" && v.Source != "unset")),
		ast.Item(key("source"), key(v.Source)),
	)
	str := func(k, s string) {
		if s != "" {
			kv = append(kv, ast.Item(key(k), ast.StringTerm(s)))
		}
	}
	flag := func(k string, b bool) {
		if b {
			kv = append(kv, ast.Item(key(k), ast.InternedTerm(true)))
		}
	}
	str("display", v.Display)
	str("raw", v.Raw)
	str("key", v.Key)
	str("file", v.File)
	str("via", v.Chain)
	if v.Loc != nil {
		kv = append(kv, ast.Item(key("loc"), ast.NewTerm(lm.of(v.Loc))))
	}
	str("error", v.Error)
	flag("deprecated", v.Deprecated)
	flag("final", v.Final)
	flag("template", v.Template)
	str("unknown", v.Unknown)
	str("varies", v.Varies)
	flag("lenient", v.Lenient)
	return ast.NewObject(kv...)
}

// display renders a typed value for messages.
func display(t valueType, x any) string {
	switch t {
	case tDuration:
		if ms, ok := x.(int64); ok {
			return units.FormatMillis(ms)
		}
	case tMemory:
		if b, ok := x.(int64); ok {
			return units.FormatBytes(b)
		}
	}
	if x == nil {
		return ""
	}
	return fmt.Sprint(x)
}

// javaDoubleText is Double.toString of the values whose config.yaml string
// form differs (flinkyaml: snakeyaml-engine's RepresentNumber).
var javaDoubleText = map[string]string{".inf": "Infinity", "-.inf": "-Infinity", ".nan": "NaN"}

// parseFlink reads a Flink value of type t (Flink 1.20 TimeUtils.parseDuration, MemorySize.parse, ConfigurationUtils).
func parseFlink(t valueType, e *parsed.Entry, enum []string, v Version) (any, error) {
	s := e.Value
	if x, ok, err := parseLegacyFlink(t, e, v); ok {
		return x, err
	}
	if e.Kind == parsed.KindFloat && t != tString {
		// config.yaml: a Double's string form is ".inf" (toYAMLString), but
		// the number, duration and boolean converters read o.toString()
		// (Flink 1.20 ConfigurationUtils.convertToInt, convertToDuration, ...)
		if j, ok := javaDoubleText[s]; ok {
			s = j
		}
	}
	switch t {
	case tDuration:
		// the java.time.Duration Flink holds, in ms: exact beyond
		// time.Duration's range (TimeUtils.parseDuration)
		return units.FlinkDurationMillis(s, v.AtLeast(v1_15))
	case tMemory:
		return units.ParseFlinkMemorySize(s)
	case tInt:
		if e.Kind == parsed.KindInt {
			// config.yaml: snakeyaml-engine's core schema gives an Integer,
			// a Long or a BigInteger; ConfigurationUtils.convertToInt
			// refuses a Long outside int's range with its own text and
			// reads a BigInteger through Integer.parseInt.
			if n, err := strconv.ParseInt(s, 10, 64); err == nil && (n > math.MaxInt32 || n < math.MinInt32) {
				return nil, fmt.Errorf("Configuration value %d overflows/underflows the integer type.", n)
			}
		}
		return units.ParseFlinkInt(s)
	case tBool:
		return units.ParseFlinkBool(s)
	case tEnum:
		for _, opt := range enum {
			if strings.EqualFold(strings.TrimSpace(s), opt) {
				return opt, nil
			}
		}
		return nil, fmt.Errorf("%q is not one of %s", s, strings.Join(enum, ", "))
	}
	if e.Kind == parsed.KindNull {
		return nil, nil
	}
	return s, nil
}

// parseLegacyFlink reads the values releases before 1.11 read otherwise;
// ok is false when v reads t as later releases do.
func parseLegacyFlink(t valueType, e *parsed.Entry, v Version) (x any, ok bool, err error) {
	s := e.Value
	if v.Less(v1_10) && e.Kind != parsed.KindNull {
		// Before the typed options of 1.10 (FLIP-77), Configuration read
		// values leniently (release-1.9.3 Configuration.java):
		// convertToBoolean is Boolean.parseBoolean, so anything but "true"
		// is false; convertToInt catches NumberFormatException, logs WARN
		// "Configuration cannot evaluate value <v> as an integer number" and
		// returns the default. The inline threshold is an int of bytes until
		// MemorySize in 1.11 (FLINK-17865).
		switch t {
		case tBool:
			b := strings.EqualFold(strings.TrimSpace(s), "true")
			if !b && !strings.EqualFold(strings.TrimSpace(s), "false") {
				return b, true, &lenientError{value: false, msg: fmt.Sprintf("Boolean.parseBoolean reads %q as false", s)}
			}
			return b, true, nil
		case tInt, tMemory:
			n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32)
			if err != nil {
				return nil, true, &lenientError{msg: fmt.Sprintf("WARN \"Configuration cannot evaluate value %s as an integer number\" and the default", s)}
			}
			if t == tMemory {
				return n, true, nil
			}
			return int(n), true, nil
		}
	} else if t == tMemory && v.Less(v1_11) && e.Kind != parsed.KindNull {
		// 1.10: an int option of bytes (CheckpointingOptions.FS_SMALL_FILE_THRESHOLD
		// defaultValue(1024), release-1.10.3); MemorySize from 1.11.
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32)
		if err != nil {
			return nil, true, fmt.Errorf("For input string: %q", strings.TrimSpace(s))
		}
		return n, true, nil
	}
	return nil, false, nil
}

// lenientError is a value a release before 1.10 reads without refusing it:
// value is what Flink goes on with (nil: the default), msg what it does.
type lenientError struct {
	value any
	msg   string
}

func (e *lenientError) Error() string { return e.msg }
