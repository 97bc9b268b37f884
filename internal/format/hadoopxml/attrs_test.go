package hadoopxml

import (
	"fmt"
	"strings"
	"testing"
)

// attrFlood is a <configuration> start tag with n namespace declarations
// (issue 25: 40,000 of them took 22-39 s to check), on line 2.
func attrFlood(n int) string {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\"?>\n<configuration")
	for i := range n {
		fmt.Fprintf(&b, " xmlns:p%d='u'", i)
	}
	b.WriteString(">\n" + prop("dfs.blocksize", "1m") + "</configuration>\n")
	return b.String()
}

// TestAttributeCap: more attributes on one tag than the JDK's
// elementAttributeLimit default is a ParseError naming the tag's line.
func TestAttributeCap(t *testing.T) {
	f := Parse("hdfs-site.xml", []byte(attrFlood(maxAttributes+1)), Options{})
	if f.Err == nil {
		t.Fatal("no error for a start tag past the attribute cap")
	}
	if f.Err.Pos.Line != 2 || !strings.Contains(f.Err.Msg, "<configuration> has 10001 attributes; ckptlint reads up to 10000") {
		t.Errorf("error %v, want line 2 naming the tag and the cap", f.Err)
	}
}

// TestAttributeCapReadsUpTo: a tag with as many attributes as the cap
// allows is read (test/hostile/measure.sh measures its cost: the
// duplicate check is one pass over a set of names).
func TestAttributeCapReadsUpTo(t *testing.T) {
	f := Parse("hdfs-site.xml", []byte(attrFlood(maxAttributes)), Options{})
	if f.Err != nil || looked(f, "dfs.blocksize") != "1m" {
		t.Fatalf("a tag at the cap is not read: err %v", f.Err)
	}
	dup := Parse("hdfs-site.xml", []byte(conf(`<property name="a" b:x="1" value="v" xmlns:b="u" b:x="2"/>`)), Options{})
	if dup.Err == nil || !strings.Contains(dup.Err.Msg, `duplicate attribute "b:x"`) {
		t.Errorf("duplicate attribute: err %v", dup.Err)
	}
}
