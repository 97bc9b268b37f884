package hadoopxml

import (
	"path"
	"strings"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Detect reports the format of a file from its name: core-site.xml is
// parsed.HadoopCoreSite and hdfs-site.xml is parsed.HadoopHDFSSite. Any
// directory part is ignored, both slash styles are accepted, and the match
// is exact on the base name (case-sensitive, as Hadoop's resource names are).
func Detect(name string) (parsed.Format, bool) {
	base := path.Base(strings.ReplaceAll(name, `\`, "/"))
	switch base {
	case "core-site.xml":
		return parsed.HadoopCoreSite, true
	case "hdfs-site.xml":
		return parsed.HadoopHDFSSite, true
	}
	return "", false
}

// formatFor picks the format Parse records for path: the detected one, else
// core-site unless the base name mentions hdfs-site (templates such as
// hdfs-site.xml.template or hdfs-site.malformed.xml).
func formatFor(p string) parsed.Format {
	if f, ok := Detect(p); ok {
		return f
	}
	if strings.Contains(path.Base(strings.ReplaceAll(p, `\`, "/")), "hdfs-site") {
		return parsed.HadoopHDFSSite
	}
	return parsed.HadoopCoreSite
}
