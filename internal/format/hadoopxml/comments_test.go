package hadoopxml

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// xmlComments renders c's comments as "line:text" (the text between the
// markers) and its elements as "from-to" lines.
func xmlComments(t *testing.T, c *parsed.Comments) (comments, elements []string) {
	t.Helper()
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	for _, cm := range c.List {
		if !strings.HasPrefix(string(c.Src[cm.Span.Start.Offset:]), "<!--") || cm.Text.Start.Offset != cm.Span.Start.Offset+4 {
			t.Fatalf("comment %+v does not start with its marker", cm)
		}
		comments = append(comments, fmt.Sprintf("%d:%s", cm.Span.Start.Line, c.Src[cm.Text.Start.Offset:cm.Text.End.Offset]))
	}
	for _, e := range c.Elements {
		elements = append(elements, fmt.Sprintf("%d-%d", e.Start.Line, e.End.Line))
	}
	return comments, elements
}

// TestComments: the comments Parse returns are the <!-- --> comments
// encoding/xml reads, before, inside and after the root and inside
// <property>, and those of a DOCTYPE's internal subset; CDATA sections,
// processing instructions and quoted literals of the subset hold none.
// Body is the first element inside the root; Elements are the lines of
// every <property>, the attribute form included.
func TestComments(t *testing.T) {
	src := `<?xml version="1.0"?>
<!-- before the root -->
<?pi <!-- not a comment --> ?>
<!DOCTYPE configuration [
  <!-- in the subset -->
  <!ENTITY e SYSTEM "<!-- not a comment either -->.dtd">
]>
<configuration>
  <!-- above -->
  <property> <!-- at the start tag -->
    <name>a</name>
    <value><![CDATA[<!-- text -->]]></value> <!-- inside -->
  </property>
  <property name="b"
    value="1"/><!--
    on two lines
  -->
</configuration>
<!-- after the root -->
`
	f := Parse("hdfs-site.xml", []byte(src), Options{})
	if f.Err != nil {
		t.Fatal(f.Err)
	}
	comments, elements := xmlComments(t, f.Comments)
	want := []string{"2: before the root ", "5: in the subset ", "9: above ", "10: at the start tag ", "12: inside ", "15:\n    on two lines\n  ", "19: after the root "}
	if diff := cmp.Diff(want, comments); diff != "" {
		t.Errorf("comments (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"10-13", "14-15"}, elements); diff != "" {
		t.Errorf("elements (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(src[f.Comments.Body:], "<property> <!-- at") || f.Comments.File != "hdfs-site.xml" {
		t.Errorf("body at %q in %s", src[f.Comments.Body:min(len(src), f.Comments.Body+20)], f.Comments.File)
	}
}

// TestCommentsDecoded: a UTF-16 file's comments point into its decoded
// text, File.Src, as its entries do.
func TestCommentsDecoded(t *testing.T) {
	text := "\uFEFF<configuration>\r\n  <!-- ckptlint:ignore CKPT101 - r -->\r\n  <property><name>a</name><value>1</value></property>\r\n</configuration>\r\n"
	var b []byte
	for _, u := range utf16Encode(text) {
		b = binary.LittleEndian.AppendUint16(b, u)
	}
	f := Parse("hdfs-site.xml", b, Options{})
	if f.Err != nil {
		t.Fatal(f.Err)
	}
	comments, elements := xmlComments(t, f.Comments)
	if diff := cmp.Diff([]string{"2: ckptlint:ignore CKPT101 - r "}, comments); diff != "" {
		t.Errorf("comments (-want +got):\n%s", diff)
	}
	if string(f.Comments.Src) != string(f.Src) || len(elements) != 1 || elements[0] != "3-3" {
		t.Errorf("comments of %q, elements %v", f.Comments.Src, elements)
	}
}

// TestCommentsOfIncludes: the comments of the xi:include targets read are
// in IncludeComments, each target once, with its own body and elements.
func TestCommentsOfIncludes(t *testing.T) {
	inc := "<configuration>\n  <!-- in the target -->\n  <property><name>b</name><value>2</value></property>\n</configuration>\n"
	src := conf("<!-- in the includer -->\n" + include("inc.xml") + include("inc.xml") + prop("a", "1"))
	f := Parse("conf/hdfs-site.xml", []byte(src), Options{ReadFile: memFS(map[string]string{"conf/inc.xml": inc})})
	if f.Err != nil {
		t.Fatal(f.Err)
	}
	if got, _ := xmlComments(t, f.Comments); len(got) != 1 || !strings.HasSuffix(got[0], " in the includer ") {
		t.Errorf("comments of the includer: %q", got)
	}
	if len(f.IncludeComments) != 1 {
		t.Fatalf("%d include comments, want 1", len(f.IncludeComments))
	}
	c := f.IncludeComments[0]
	comments, elements := xmlComments(t, c)
	if c.File != "conf/inc.xml" || string(c.Src) != inc || !cmp.Equal(comments, []string{"2: in the target "}) || !cmp.Equal(elements, []string{"3-3"}) ||
		!strings.HasPrefix(inc[c.Body:], "<property>") {
		t.Errorf("comments of the target: %s %q %q body %d", c.File, comments, elements, c.Body)
	}
}

// TestCommentsAfterAnError: a file that does not parse has the comments
// read before the error, and the comment it ends in without its "-->".
func TestCommentsAfterAnError(t *testing.T) {
	for src, want := range map[string][]string{
		"<configuration>\n<!-- a -->\n<x></y>\n<!-- after the error -->\n</configuration>\n": {"2: a "},
		"<configuration>\n<!-- a -->\n<!-- unterminated\n":                                   {"2: a ", "3: unterminated\n"},
		"<configuration>\n<!-- a -- b -->\n</configuration>\n":                               nil,
	} {
		f := Parse("hdfs-site.xml", []byte(src), Options{})
		if f.Err == nil {
			t.Fatalf("%q: no error", src)
		}
		if got, _ := xmlComments(t, f.Comments); !cmp.Equal(got, want) {
			t.Errorf("%q: comments %q, want %q", src, got, want)
		}
	}
	if f := Parse("hdfs-site.xml", []byte(strings.Repeat(" ", parsed.MaxFileSize+1)), Options{}); f.Comments != nil {
		t.Error("comments of a file over the size cap")
	}
}
