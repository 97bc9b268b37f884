package flinkyaml

import (
	"bytes"
	"strings"

	"github.com/ckptlint/ckptlint/lint/parsed"
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

// LooksLikeFlink reports whether src, a file named config.yaml, is Flink's:
// some key starts with one of FlinkPrefixes after flattening. A file that
// does not parse is judged by its unindented "key:" lines instead, so a
// broken Flink config is still recognised (and its error reported).
func LooksLikeFlink(src []byte) bool { return IsFlinkConfig(ParseConfig("", src)) }

// IsFlinkConfig is LooksLikeFlink on an already parsed config.yaml, so a
// caller that keeps the parse does not parse twice.
//
// A parsed file is Flink's only when at least half of its top-level names
// (the first segment of each key) hold a key in Flink's namespaces
// (FlinkPrefixes or otherFlinkPrefixes): an application config.yaml that
// happens to hold one security.* or metrics.* key among server.*,
// spring.* and management.* (Spring Boot 1.x, for one) is not Flink's.
func IsFlinkConfig(f *parsed.File) bool {
	strong := 0
	tops := map[string]bool{} // first segment → holds a Flink key
	for _, e := range f.Entries {
		top, _, _ := strings.Cut(e.Key, ".")
		flinkish := tops[top]
		switch {
		case hasFlinkPrefix(e.Key):
			strong++
			flinkish = true
		case hasOtherFlinkPrefix(e.Key):
			flinkish = true
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
		return true
	}
	if f.Err == nil || strong > 0 {
		return false
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
			return true
		}
	}
	return false
}
