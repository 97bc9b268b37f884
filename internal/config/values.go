package config

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/ckptlint/ckptlint/internal/units"
)

// checker converts raw attribute values and collects what is wrong with
// them. Each method returns nil (or "") for an unset or invalid value.
type checker struct {
	diags hcl.Diagnostics
}

func (k *checker) errorf(rng hcl.Range, summary, format string, args ...any) {
	r := rng
	k.diags = append(k.diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf(format, args...),
		Subject:  &r,
	})
}

// versionRE is the accepted version syntax: major.minor[.patch].
var versionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d+\.\d+(\.\d+)?$`) })

// version checks a flink_version or hadoop_version value.
func (k *checker) version(attr string, v *string, rng hcl.Range) string {
	if v == nil {
		return ""
	}
	if !versionRE().MatchString(*v) {
		k.errorf(rng, "Invalid version",
			"The %s %q is not a version; write major.minor or major.minor.patch, such as %q.",
			attr, *v, exampleVersion(attr))
		return ""
	}
	return *v
}

func exampleVersion(attr string) string {
	if strings.HasSuffix(attr, "hadoop_version") {
		return "3.1.0"
	}
	return "1.20"
}

// integer converts a whole-number attribute (or a string HCL converts to a
// number) that must lie in [min, max].
func (k *checker) integer(attr string, expr hcl.Expression, min, max int64) (int64, bool) {
	v, ok := k.value(expr)
	if !ok {
		return 0, false
	}
	rng := expr.Range()
	n, err := convert.Convert(v, cty.Number)
	if err != nil {
		k.errorf(rng, "Unsuitable value type", "The %s must be a whole number; got a %s.", attr, v.Type().FriendlyName())
		return 0, false
	}
	bf := n.AsBigFloat()
	i, acc := bf.Int64()
	switch {
	case !bf.IsInt():
		k.errorf(rng, "Invalid value", "The %s must be a whole number; got %s.", attr, bf.Text('g', -1))
		return 0, false
	case i < min:
		k.errorf(rng, "Invalid value", "The %s must be at least %d; got %s.", attr, min, bf.Text('f', 0))
		return 0, false
	case i > max || acc == big.Below:
		k.errorf(rng, "Invalid value", "The %s must be at most %d; got %s.", attr, max, bf.Text('f', 0))
		return 0, false
	}
	return i, true
}

// count is integer for an int field; nil when unset or invalid.
func (k *checker) count(attr string, expr hcl.Expression, min int) *int {
	i, ok := k.integer(attr, expr, int64(min), math.MaxInt32)
	if !ok {
		return nil
	}
	n := int(i)
	return &n
}

// count64 is integer for an int64 field; nil when unset or invalid.
func (k *checker) count64(attr string, expr hcl.Expression, min int64) *int64 {
	i, ok := k.integer(attr, expr, min, math.MaxInt64)
	if !ok {
		return nil
	}
	return &i
}

// str checks that a string attribute, if set, is not empty.
func (k *checker) str(attr string, v *string, rng hcl.Range) string {
	if v == nil {
		return ""
	}
	if *v == "" {
		k.errorf(rng, "Empty value", "The %s must not be empty; remove the argument instead.", attr)
	}
	return *v
}

// value evaluates an optional expression without variables or functions. It
// reports false when the attribute is unset (null) or evaluation failed.
func (k *checker) value(expr hcl.Expression) (cty.Value, bool) {
	if expr == nil {
		return cty.NilVal, false
	}
	v, diags := expr.Value(nil)
	k.diags = append(k.diags, diags...)
	if diags.HasErrors() || v.IsNull() || !v.IsWhollyKnown() {
		return cty.NilVal, false
	}
	return v, true
}

// size converts a byte count: a whole number, or a Flink memory size string
// such as "43g" (units.ParseFlinkMemorySize).
func (k *checker) size(attr string, expr hcl.Expression) *int64 {
	v, ok := k.value(expr)
	if !ok {
		return nil
	}
	rng := expr.Range()
	switch v.Type() {
	case cty.Number:
		bf := v.AsBigFloat()
		n, acc := bf.Int64()
		switch {
		case !bf.IsInt():
			k.errorf(rng, "Invalid size", "The %s must be a whole number of bytes or a size string such as %q; got %s.",
				attr, "43g", bf.Text('g', -1))
			return nil
		case acc != big.Exact:
			k.errorf(rng, "Invalid size", "The %s %s does not fit in 64 bits.", attr, bf.Text('f', 0))
			return nil
		case n < 0:
			k.errorf(rng, "Invalid size", "The %s must not be negative; got %d.", attr, n)
			return nil
		}
		return &n
	case cty.String:
		n, err := units.ParseFlinkMemorySize(v.AsString())
		if err != nil {
			k.errorf(rng, "Invalid size",
				"Cannot read %q as the %s: %s. Write a number of bytes or a Flink memory size such as %q.",
				v.AsString(), attr, reason(err), "43g")
			return nil
		}
		return &n
	default:
		k.errorf(rng, "Unsuitable value type",
			"The %s must be a number of bytes or a size string such as %q; got a %s.",
			attr, "43g", v.Type().FriendlyName())
		return nil
	}
}

// duration converts a Flink duration string such as "40s"
// (units.ParseFlinkDuration with "m" meaning minutes).
func (k *checker) duration(attr string, expr hcl.Expression) *time.Duration {
	v, ok := k.value(expr)
	if !ok {
		return nil
	}
	rng := expr.Range()
	if v.Type() != cty.String {
		k.errorf(rng, "Unsuitable value type",
			"The %s must be a duration string with a unit, such as %q; got a %s.",
			attr, "40s", v.Type().FriendlyName())
		return nil
	}
	d, err := units.ParseFlinkDuration(v.AsString(), true)
	if err != nil {
		k.errorf(rng, "Invalid duration",
			"Cannot read %q as the %s: %s. Write a Flink duration such as %q.",
			v.AsString(), attr, reason(err), "40s")
		return nil
	}
	return &d
}

// strings decodes a list of strings and returns the range of each element
// (the whole expression's range when the elements cannot be told apart).
func (k *checker) strings(expr hcl.Expression) ([]string, []hcl.Range) {
	if _, ok := k.value(expr); !ok {
		return nil, nil
	}
	var out []string
	diags := gohcl.DecodeExpression(expr, nil, &out)
	k.diags = append(k.diags, diags...)
	if diags.HasErrors() {
		return nil, nil
	}
	ranges := make([]hcl.Range, len(out))
	elems, ediags := hcl.ExprList(expr)
	for i := range ranges {
		ranges[i] = expr.Range()
		if !ediags.HasErrors() && len(elems) == len(out) {
			ranges[i] = elems[i].Range()
		}
	}
	return out, ranges
}

// stringMap decodes a map of strings and returns the range of each key.
func (k *checker) stringMap(expr hcl.Expression) (map[string]string, map[string]hcl.Range) {
	if _, ok := k.value(expr); !ok {
		return nil, nil
	}
	var out map[string]string
	diags := gohcl.DecodeExpression(expr, nil, &out)
	k.diags = append(k.diags, diags...)
	if diags.HasErrors() {
		return nil, nil
	}
	ranges := make(map[string]hcl.Range, len(out))
	for key := range out {
		ranges[key] = expr.Range()
	}
	pairs, pdiags := hcl.ExprMap(expr)
	if !pdiags.HasErrors() {
		for _, p := range pairs {
			kv, kd := p.Key.Value(nil)
			if kd.HasErrors() || kv.IsNull() || !kv.IsKnown() || kv.Type() != cty.String {
				continue
			}
			ranges[kv.AsString()] = p.Key.Range()
		}
	}
	return out, ranges
}

// reason is err's text without a final period, to be embedded in a sentence.
func reason(err error) string {
	return strings.TrimSuffix(err.Error(), ".")
}
