package flinkyaml

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// FlinkPrefixes are the key prefixes that mark a config.yaml as Flink's.
// A key matches when it starts with one of them after flattening.
var FlinkPrefixes = []string{
	"jobmanager.", "taskmanager.", "execution.", "state.", "parallelism.",
	"high-availability", "restart-strategy", "env.java", "rest.", "blob.",
	"pipeline.", "metrics.", "kubernetes.", "fs.", "akka.", "pekko.", "table.",
	"web.", "io.tmp.dirs", "classloader.", "security.",
}

// otherFlinkPrefixes are further namespaces of Flink's options
// (https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/config/),
// too generic to mark a file as Flink's alone but counted as Flink keys.
var otherFlinkPrefixes = []string{
	"heartbeat.", "cluster.", "slot.", "resourcemanager.", "jobstore.", "historyserver.", "yarn.",
	"s3.", "zookeeper.", "containerized.", "client.", "python.", "sql-gateway.", "queryable-state.",
	"query.", "taskmanager", "jobmanager", "env.", "local.", "process.", "state", "execution",
	"restart-strategy", "high-availability", "metrics", "rest", "web", "security", "akka", "pekko",
}

func hasOtherFlinkPrefix(key string) bool {
	for _, p := range otherFlinkPrefixes {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// hasFlinkPrefix reports whether key starts with one of FlinkPrefixes.
func hasFlinkPrefix(key string) bool {
	for _, p := range FlinkPrefixes {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// distinctivePrefixes are the namespaces of FlinkPrefixes that no other
// tool's configuration writes at its top level: one key in them makes a
// config.yaml Flink's, whatever else it holds. Flink 1.19 and later read
// every key of config.yaml (GlobalConfiguration.loadYAMLResource flattens
// the whole file); keys no option declares are just unknown to Flink, so
// kafka: or app: beside them does not make the file someone else's.
// rest., metrics., web., fs., security., kubernetes., table., pipeline.,
// and state. or execution. alone are left out: Spring Boot 1.x writes
// security.*, Dropwizard metrics.*, Hugo security.*, CI tools pipeline:.
var distinctivePrefixes = []string{
	"jobmanager.", "taskmanager.", "parallelism.default", "high-availability", "restart-strategy", "env.java",
	"pekko.", "akka.", "blob.", "io.tmp.dirs", "classloader.", "state.backend", "state.checkpoint",
	"state.savepoints", "execution.checkpointing.", "execution.savepoint", "execution.runtime-mode",
}

func hasDistinctivePrefix(key string) bool {
	for _, p := range distinctivePrefixes {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// Verdict is whose a file named config.yaml is, by its keys (Classify).
type Verdict int

const (
	// NotFlink is another tool's file: not read, and nothing said.
	NotFlink Verdict = iota
	// Flink is Flink's configuration: read and linted.
	Flink
	// MaybeFlink holds keys of several Flink namespaces among mostly
	// other keys: not read as Flink's, but reported (a CKPT000 naming
	// them), so a Flink file that gained a few unrelated sections does
	// not vanish from the lint gate.
	MaybeFlink
)

// LooksLikeFlink reports whether src, a file named config.yaml, is Flink's
// (Classify). A file that does not parse is judged by its unindented
// "key:" lines instead, so a broken Flink config is still recognised (and
// its error reported).
func LooksLikeFlink(src []byte) bool { return IsFlinkConfig(ParseConfig("", src)) }

// IsFlinkConfig is LooksLikeFlink on an already parsed config.yaml, so a
// caller that keeps the parse does not parse twice.
func IsFlinkConfig(f *parsed.File) bool {
	v, _ := Classify(f)
	return v == Flink
}

// Classify tells whose a parsed config.yaml is, and for MaybeFlink why it
// is not read (a sentence for a CKPT000).
//
// It is Flink's when a key lies in a namespace only Flink uses
// (distinctivePrefixes), or when at least half of its top-level names (the
// first segment of each key) hold a key in Flink's namespaces
// (FlinkPrefixes or otherFlinkPrefixes) and one is in FlinkPrefixes: an
// application config.yaml that happens to hold one security.* or
// metrics.* key among server.*, spring.* and management.* (Spring Boot
// 1.x, for one) is not Flink's. Keys of FlinkPrefixes under two or more
// top-level names, short of that half, are MaybeFlink.
func Classify(f *parsed.File) (Verdict, string) {
	strong := 0
	tops := map[string]bool{} // first segment → holds a Flink key
	var strongTops []string   // the first segments of the FlinkPrefixes keys, in file order
	var others []string       // the other first segments, in file order
	for _, e := range f.Entries {
		if hasDistinctivePrefix(e.Key) {
			return Flink, ""
		}
		top, _, _ := strings.Cut(e.Key, ".")
		flinkish, seen := tops[top]
		switch {
		case hasFlinkPrefix(e.Key):
			strong++
			if !slices.Contains(strongTops, top) {
				strongTops = append(strongTops, top)
			}
			flinkish = true
		case hasOtherFlinkPrefix(e.Key):
			flinkish = true
		}
		if !seen && !flinkish {
			others = append(others, top)
		}
		tops[top] = flinkish
	}
	flinkTops := 0
	for _, v := range tops {
		if v {
			flinkTops++
		}
	}
	if strong > 0 && 2*flinkTops >= len(tops) {
		return Flink, ""
	}
	if len(strongTops) >= 2 {
		others = slices.DeleteFunc(others, func(t string) bool { return tops[t] })
		return MaybeFlink, fmt.Sprintf("config.yaml holds keys of Flink's %s options, but %d of its %d top-level names (%s) are not Flink's, so ckptlint cannot tell it is Flink's configuration and does not lint it; "+
			"Flink reads every key of a config.yaml it is given: declare the file in a deployment block of .ckptlint.hcl (flink_conf) to lint it, or list it under ignore if it is not Flink's",
			quoteList(strongTops, 4), len(tops)-flinkTops, len(tops), quoteList(others, 4))
	}
	if f.Err == nil || strong > 0 {
		return NotFlink, ""
	}
	for _, line := range bytes.Split(f.Src, []byte("\n")) {
		if len(line) == 0 || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
			continue
		}
		key, _, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		k := strings.Trim(string(bytes.TrimSpace(key)), `"'`)
		if hasFlinkPrefix(k) || hasFlinkPrefix(k+".") {
			return Flink, ""
		}
	}
	return NotFlink, ""
}

// quoteList joins up to n names ("a, b and c"), "and K more" after them.
func quoteList(names []string, n int) string {
	switch {
	case len(names) > n:
		return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
	case len(names) > 1:
		return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
	return strings.Join(names, "")
}
