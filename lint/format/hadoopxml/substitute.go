package hadoopxml

import (
	"strconv"
	"strings"
)

// maxSubst is Hadoop's Configuration.MAX_SUBST.
const maxSubst = 20

// SubstitutionDepthError is Hadoop's IllegalStateException from
// Configuration.substituteVars: the value still held a ${var} after
// maxSubst (20) replacements. Hadoop throws it from every get() of the key.
type SubstitutionDepthError struct {
	// Expr is the value before substitution.
	Expr string
}

// Error returns Hadoop's message verbatim (it starts with a capital letter,
// unlike ckptlint's own errors, so that users can search for it).
func (e *SubstitutionDepthError) Error() string {
	return "Variable substitution depth too large: " + strconv.Itoa(maxSubst) + " " + e.Expr
}

// Substitute expands ${var} references in value exactly as Hadoop's
// Configuration.substituteVars does (Hadoop 3.4.1 Configuration.java L1150-1218):
//
//   - the left-most ${var} is replaced first, then the scan restarts; var is
//     a non-empty run without '}', '$' or space;
//   - ${env.NAME} reads getenv(NAME); ${env.NAME:-def} uses def when NAME is
//     unset or empty; ${env.NAME-def} uses def only when NAME is unset;
//   - any other name would be a Java system property first; ckptlint has no
//     JVM, so system properties are always unbound (e.g. ${user.name});
//   - when that gives nothing, var is looked up as a configuration key (a
//     deprecated name is first mapped to its replacement, as getRaw does);
//     lookup returns the key's raw, unsubstituted value;
//   - the first unbound variable ends the expansion: the value is returned
//     as expanded so far, so a later ${var} stays literal too;
//   - a value that contains its own ${var} returns the original value;
//   - 20 replacements end with *SubstitutionDepthError.
//
// lookup and getenv may be nil, meaning nothing is bound.
func Substitute(value string, lookup func(key string) (string, bool), getenv func(name string) (string, bool)) (string, error) {
	eval := value
	for s := 0; s < maxSubst; s++ {
		start, end := findSubVariable(eval)
		if start < 0 {
			return eval, nil
		}
		name := eval[start:end]
		val, ok := resolveEnv(name, getenv)
		if !ok && lookup != nil {
			key := name
			if nk, dep := Deprecated(key); dep {
				key = nk
			}
			val, ok = lookup(key)
		}
		if !ok {
			return eval, nil // unbound: literal ${var}
		}
		ref := eval[start-2 : end+1]
		if strings.Contains(val, ref) {
			return value, nil // self-reference: the original expression
		}
		eval = eval[:start-2] + val + eval[end+1:]
	}
	return "", &SubstitutionDepthError{Expr: value}
}

// resolveEnv handles the env.NAME forms; ok is false when the variable is
// not an env reference or resolves to nothing (Hadoop then tries the
// configuration key of the same name).
func resolveEnv(name string, getenv func(string) (string, bool)) (string, bool) {
	if !strings.HasPrefix(name, "env.") || len(name) <= len("env.") {
		return "", false // a system property in Hadoop: always unbound here
	}
	get := func(n string) (string, bool) {
		if getenv == nil {
			return "", false
		}
		return getenv(n)
	}
	v := name[len("env."):]
	for i := 0; i < len(v); i++ {
		switch {
		case v[i] == ':' && i < len(v)-1 && v[i+1] == '-':
			if val, ok := get(v[:i]); ok && val != "" {
				return val, true
			}
			return v[i+2:], true
		case v[i] == '-':
			if val, ok := get(v[:i]); ok {
				return val, true
			}
			return v[i+1:], true
		}
	}
	return get(v)
}

// findSubVariable is Hadoop's hand-written matcher for the regular
// expression \$\{[^\}\$ ]+\} (HADOOP-11506): it returns the bounds of var in
// the left-most ${var}, or -1, -1. Every delimiter is ASCII, so byte indices
// give the same matches as Java's UTF-16 indices.
func findSubVariable(eval string) (int, int) {
	matchStart := 1
	for {
		lb := strings.IndexByte(eval[min(matchStart, len(eval)):], '{')
		if lb < 0 {
			return -1, -1
		}
		lb += min(matchStart, len(eval))
		if lb <= 0 || lb+len("{c") >= len(eval) {
			return -1, -1
		}
		if eval[lb-1] != '$' {
			matchStart = lb + 1
			continue
		}
		subStart := lb + 1
		matched := 0
		restart := false
		for i := subStart; i < len(eval); i++ {
			c := eval[i]
			if c == '}' && matched > 0 {
				return subStart, subStart + matched
			}
			if c == '}' || c == ' ' || c == '$' {
				matchStart = i + 1
				restart = true
				break
			}
			matched++
		}
		if !restart {
			return -1, -1 // "${" runs to the end without a closing brace
		}
	}
}
