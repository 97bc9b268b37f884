package flinkconf

import (
	"path"
	"strings"
)

// FileName is the base name Flink reads its legacy configuration from.
const FileName = "flink-conf.yaml"

// Detect reports whether name (a path with '/' or '\' separators) names a
// legacy Flink configuration file: its base name is exactly flink-conf.yaml.
func Detect(name string) bool {
	return path.Base(strings.ReplaceAll(name, `\`, "/")) == FileName
}
