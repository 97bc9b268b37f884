package hadoopxml

import (
	"testing"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

func TestDetect(t *testing.T) {
	tests := []struct {
		name, file string
		want       parsed.Format
		ok         bool
	}{
		{name: "core-site", file: "core-site.xml", want: parsed.HadoopCoreSite, ok: true},
		{name: "hdfs-site in a directory", file: "etc/hadoop/hdfs-site.xml", want: parsed.HadoopHDFSSite, ok: true},
		{name: "windows separators", file: `C:\hadoop\etc\hdfs-site.xml`, want: parsed.HadoopHDFSSite, ok: true},
		{name: "template is not detected", file: "core-site.xml.template", ok: false},
		{name: "other xml", file: "yarn-site.xml", ok: false},
		{name: "case matters", file: "Core-Site.xml", ok: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Detect(tt.file)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Detect(%q) = %q, %v; want %q, %v", tt.file, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestParseFormat(t *testing.T) {
	for file, want := range map[string]parsed.Format{
		"a/core-site.xml": parsed.HadoopCoreSite, "hdfs-site.xml": parsed.HadoopHDFSSite,
		"hdfs-site.malformed.xml": parsed.HadoopHDFSSite, "core-site.xml.template": parsed.HadoopCoreSite,
	} {
		if got := Parse(file, []byte("<configuration/>"), Options{}).Format; got != want {
			t.Errorf("Parse(%q).Format = %q, want %q", file, got, want)
		}
	}
}
