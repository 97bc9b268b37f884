package flinkyaml

import (
	"fmt"
	"strings"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Notice codes recorded by this package. Rules decide what to report.
const (
	// NoticeFlatNestedOverlap: two entries flatten to the same key without
	// being a YAML duplicate (e.g. `a.b: 1` and `a: {b: 2}`); Flink keeps
	// the later one. The notice sits on the later entry's key.
	NoticeFlatNestedOverlap = "yaml-flat-nested-overlap"
	// NoticeBoolLikeString: an unquoted yes/no/on/off/y/n (any case). YAML
	// 1.2 keeps it a string, and Flink's boolean parser accepts only
	// true/false (Flink 1.20 ConfigurationUtils.java L590-606).
	NoticeBoolLikeString = "yaml-bool-like-string"
	// NoticeEnvJavaHomeNested: env.java.home written as a nested key. The
	// start scripts read it with sed from the raw file, so it must be flat
	// (Flink 1.20 bin/bash-java-utils.sh L25-44).
	NoticeEnvJavaHomeNested = "yaml-env-java-home-nested"
	// NoticeNullValue: a null leaf in config.yaml. Flink's
	// Configuration.setValueInternal rejects null values, so loading fails.
	NoticeNullValue = "yaml-null-value"
)

// boolLikeWords are the YAML 1.1 booleans that YAML 1.2 reads as strings.
var boolLikeWords = map[string]bool{
	"yes": true, "no": true, "on": true, "off": true, "y": true, "n": true,
}

// isBoolLike reports whether s is one of boolLikeWords in any letter case.
func isBoolLike(s string) bool { return boolLikeWords[strings.ToLower(s)] }

func newNotice(path, code string, sp parsed.Span, key, format string, args ...any) parsed.Notice {
	return parsed.Notice{
		Code:    code,
		Message: fmt.Sprintf(format, args...),
		File:    path,
		Span:    sp,
		Key:     key,
	}
}
