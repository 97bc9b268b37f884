package lint_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/lint"
)

// TestCDATAReadingUTF16: a Hadoop release that drops CDATA sections
// (hadoop_version 3.2.1) reads a UTF-16 hdfs-site.xml as it reads the same
// file in UTF-8; whether a file holds CDATA comes from its parse, not from
// its bytes (internal/assemble cdataReading). On 3.3.6, which reads CDATA, the
// findings differ, so the reading is what the test looks at.
func TestCDATAReadingUTF16(t *testing.T) {
	const hdfs = `<?xml version="1.0" encoding="%s"?>
<configuration>
  <property>
    <name>dfs.blocksize</name>
    <value><![CDATA[1m]]></value>
  </property>
</configuration>
`
	utf8 := fmtEncoding(hdfs, "UTF-8")
	var utf16 []byte
	utf16 = append(utf16, 0xFF, 0xFE)
	for _, r := range fmtEncoding(hdfs, "UTF-16") {
		utf16 = append(utf16, byte(r), byte(r>>8))
	}
	eng := linttest.Engine(t)
	run := func(version, body string) []finding.Finding {
		dir := t.TempDir()
		mkfile(t, filepath.Join(dir, "conf", "flink-conf.yaml"), "state.backend.type: rocksdb\nexecution.checkpointing.interval: 60s\nstate.checkpoints.dir: hdfs:///flink/checkpoints\n")
		mkfile(t, filepath.Join(dir, "conf", "hdfs-site.xml"), body)
		mkfile(t, filepath.Join(dir, ".ckptlint.hcl"), "hadoop_version = \""+version+"\"\nflink_version = \"1.18.1\"\n")
		return linttest.Lint(t, eng, dir, lint.Options{}).Findings
	}
	// What a reader sees: file, line, rule and message (byte offsets in
	// the two files differ).
	read := func(fs []finding.Finding) []string {
		var out []string
		for _, f := range fs {
			out = append(out, fmt.Sprintf("%s:%d:%d %s %s", f.Range.File, f.Range.Start.Line, f.Range.Start.Col, f.RuleID, f.Message))
		}
		return out
	}
	old8, old16 := read(run("3.2.1", utf8)), read(run("3.2.1", string(utf16)))
	if !reflect.DeepEqual(old8, old16) {
		t.Errorf("Hadoop 3.2.1 reads the UTF-16 file differently:\nUTF-8:  %q\nUTF-16: %q", old8, old16)
	}
	if reflect.DeepEqual(old8, read(run("3.3.6", utf8))) {
		t.Fatal("the findings do not depend on the CDATA reading; the test checks nothing")
	}
}

func fmtEncoding(tmpl, enc string) string {
	return strings.Replace(tmpl, "%s", enc, 1)
}
