package hadoopxml

import (
	"fmt"
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
// Configuration.substituteVars does (Hadoop 3.4.1 Configuration.java
// L1150-1218):
//
//   - the left-most ${var} is replaced first, then the scan restarts; var is
//     a non-empty run without '}', '$' or space;
//   - ${env.NAME} reads getenv(NAME); ${env.NAME:-def} uses def when NAME is
//     unset or empty; ${env.NAME-def} uses def only when NAME is unset
//     (HADOOP-9642, Hadoop 3.0.0-alpha1);
//   - any other name is a Java system property first (getProperty): the
//     JVM's value wins over a key of the same name, in every release read
//     (2.6.5, 3.1.3 and 3.4.1 call System.getProperty before getRaw);
//   - when that gives nothing, var is looked up as a configuration key (a
//     deprecated name is first mapped to its replacement, as getRaw does);
//     lookup returns the key's raw, unsubstituted value;
//   - the first unbound variable ends the expansion: the value is returned
//     as expanded so far, so a later ${var} stays literal too;
//   - a value that contains its own ${var} returns the original value;
//   - 20 replacements end with *SubstitutionDepthError.
//
// lookup, getenv and getProperty may be nil, meaning nothing is bound.
// ckptlint reads files with expand, for which the process is unknown.
func Substitute(value string, lookup, getenv, getProperty func(string) (string, bool)) (string, error) {
	return substituteVars(value, lookup, getenv, getProperty, nil)
}

// expand is substituteVars as ckptlint reads a file: it cannot see the
// process that runs Flink's HDFS client. With getenv nil its environment is
// unknown, and the JVM's system properties always are (JVMProperty): such a
// ${var} is kept as written, the value is unknown (Unknowns says why), and
// the expansion goes on after it as Hadoop's would once it had the value.
// Otherwise it is Substitute.
func expand(value string, lookup, getenv func(string) (string, bool)) (string, error) {
	return substituteVars(value, lookup, getenv, nil, func(name string) bool {
		if isEnvRef(name) {
			return getenv == nil
		}
		return JVMProperty(name)
	})
}

// substituteVars is Configuration.substituteVars; unknown names a ${var}
// whose value the process would supply and ckptlint does not know: it is
// kept as written and the scan goes on after it. The text before a kept
// reference is final: it held no ${var} (the reference was the left-most)
// and a match cannot span the kept reference's closing '}'.
func substituteVars(value string, lookup, getenv, getProperty func(string) (string, bool), unknown func(string) bool) (string, error) {
	eval, from := value, 0
	for s := 0; s < maxSubst; s++ {
		start, end := findSubVariable(eval[from:])
		if start < 0 {
			return eval, nil
		}
		start, end = start+from, end+from
		name := eval[start:end]
		if unknown != nil && unknown(name) {
			from = end + 1
			continue
		}
		var val string
		var ok bool
		switch {
		case isEnvRef(name):
			val, ok = resolveEnv(name, getenv)
		case getProperty != nil:
			val, ok = getProperty(name)
		}
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

// isEnvRef reports a ${env.NAME...} reference (substituteVars:
// var.startsWith("env.") && 4 < var.length()).
func isEnvRef(name string) bool {
	return strings.HasPrefix(name, "env.") && len(name) > len("env.")
}

// envParts splits an env reference into the variable, its default and the
// form: ":-" (def when unset or empty), "-" (def when unset) or "" (none),
// as substituteVars scans it: the first ":-" or "-" ends the name.
func envParts(name string) (v, def, form string) {
	v = name[len("env."):]
	for i := 0; i < len(v); i++ {
		switch {
		case v[i] == ':' && i < len(v)-1 && v[i+1] == '-':
			return v[:i], v[i+2:], ":-"
		case v[i] == '-':
			return v[:i], v[i+1:], "-"
		}
	}
	return v, "", ""
}

// resolveEnv handles the env.NAME forms; ok is false when the variable
// resolves to nothing (Hadoop then tries the configuration key of the same
// name).
func resolveEnv(name string, getenv func(string) (string, bool)) (string, bool) {
	get := func(n string) (string, bool) {
		if getenv == nil {
			return "", false
		}
		return getenv(n)
	}
	v, def, form := envParts(name)
	switch form {
	case ":-":
		if val, ok := get(v); ok && val != "" {
			return val, true
		}
		return def, true
	case "-":
		if val, ok := get(v); ok {
			return val, true
		}
		return def, true
	}
	return get(v)
}

// jvmProperties are the system properties every Java runtime defines
// (Java SE 17 API, java.lang.System.getProperties: the table of keys
// "always" available, with file.encoding and native.encoding, which the
// JDK sets at start-up). Hadoop's substituteVars reads them with
// System.getProperty before any configuration key, so their value is the
// JVM's, which ckptlint cannot know. A property passed with -D (Flink's
// env.java.opts) would win too; those are not known here.
var jvmProperties = map[string]bool{
	"java.version": true, "java.version.date": true, "java.vendor": true, "java.vendor.url": true,
	"java.vendor.version": true, "java.home": true, "java.vm.specification.version": true,
	"java.vm.specification.vendor": true, "java.vm.specification.name": true, "java.vm.version": true,
	"java.vm.vendor": true, "java.vm.name": true, "java.specification.version": true,
	"java.specification.vendor": true, "java.specification.name": true, "java.class.version": true,
	"java.class.path": true, "java.library.path": true, "java.io.tmpdir": true, "os.name": true,
	"os.arch": true, "os.version": true, "file.separator": true, "path.separator": true,
	"line.separator": true, "user.name": true, "user.home": true, "user.dir": true,
	"file.encoding": true, "native.encoding": true,
}

// JVMProperty reports a Java system property every JVM defines, whose
// value Hadoop's substitution takes from the JVM before any key of the same
// name (Substitute).
func JVMProperty(name string) bool { return jvmProperties[name] }

// Unknowns describes the references of value, a value as ckptlint
// expands it (expand), whose text the process decides: environment
// variables and JVM system properties. likely is value with each
// ${env.NAME:-def} and ${env.NAME-def} replaced by def, what Hadoop reads
// when NAME is unset; why is "" when value has no such reference.
func Unknowns(value string) (likely, why string) {
	var reasons []string
	likely = value
	from := 0
	for {
		start, end := findSubVariable(likely[from:])
		if start < 0 {
			break
		}
		start, end = start+from, end+from
		name := likely[start:end]
		switch {
		case isEnvRef(name):
			v, def, form := envParts(name)
			switch form {
			case ":-":
				reasons = append(reasons, fmt.Sprintf("${%s} is %q unless the environment variable %s is set and not empty", name, def, v))
			case "-":
				reasons = append(reasons, fmt.Sprintf("${%s} is %q unless the environment variable %s is set", name, def, v))
			default:
				reasons = append(reasons, fmt.Sprintf("${%s} is the environment variable %s (or the key env.%s when it is unset)", name, v, v))
			}
			if form != "" {
				likely = likely[:start-2] + def + likely[end+1:]
				from = start - 2 + len(def)
				continue
			}
		case JVMProperty(name):
			reasons = append(reasons, fmt.Sprintf("${%s} is the JVM's system property %s, which Hadoop reads before any key of that name", name, name))
		}
		from = end + 1
	}
	if len(reasons) == 0 {
		return value, ""
	}
	return likely, strings.Join(reasons, "; ") + ": ckptlint cannot see the environment or the JVM of the process that runs Flink's HDFS client"
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
