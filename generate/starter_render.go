package generate

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/beevik/etree"
	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/model"
)

func (p *plan) flinkHeader(name string) []string {
	h := []string{
		fmt.Sprintf("Starter Flink configuration written by ckptlint generate for %s.", p.where()),
		fmt.Sprintf("%s (%s), %s (%s).", p.flinkText, p.flinkFrom, p.hadoopText, p.hadoopFrom),
	}
	if name == "flink-conf.yaml" {
		h = append(h, "Flink up to 1.18 reads conf/flink-conf.yaml with its legacy line parser: flat \"key: value\" lines, and a # anywhere starts a comment.")
	} else {
		h = append(h, "Flink reads conf/config.yaml as standard YAML (the distribution's default file from 1.19; 2.x reads nothing else). On 1.19 and 1.20 a flink-conf.yaml beside it would be read instead: do not keep one.")
	}
	return append(h, "Each value says why it was chosen and where its numbers come from (.ckptlint.hcl, Flink and Hadoop defaults); ckptlint rule ids in parentheses.")
}

func (p *plan) clientHeader() []string {
	h := fmt.Sprintf("HDFS client settings for Flink's checkpoint writes, written by ckptlint generate for %s (%s, %s). ", p.where(), p.hadoopText, p.hadoopFrom) +
		"Flink's HDFS client reads hdfs-site.xml from HADOOP_CONF_DIR (env.hadoop.conf.dir in the Flink configuration sets it): put these properties into that directory's hdfs-site.xml, next to the core-site.xml that names the NameNode."
	if p.flink.AtLeast(model.V(1, 13)) {
		h += " On Flink 1.13 or later, flink.hadoop.<key> entries in the Flink configuration would set them too."
	}
	return []string{h}
}

func (p *plan) datanodeHeader() []string {
	return []string{fmt.Sprintf("DataNode settings written by ckptlint generate for %s (%s, %s). Not a complete hdfs-site.xml: merge these properties into the hdfs-site.xml of every DataNode and restart the DataNodes.", p.where(), p.dnText, p.dnFrom)}
}

// flinkFile renders the Flink settings with the YAML library: flat keys in
// flink-conf.yaml (all the legacy parser reads), nested keys in config.yaml
// like the distribution's file.
func (p *plan) flinkFile(name string, ss []setting) []byte {
	root := &yaml.Node{Kind: yaml.MappingNode}
	nested := name == "config.yaml" && !prefixClash(ss)
	for _, s := range ss {
		m, path := root, []string{s.key}
		if nested {
			path = strings.Split(s.key, ".")
		}
		for _, seg := range path[:len(path)-1] {
			m = child(m, seg)
		}
		m.Content = append(m.Content,
			&yaml.Node{Kind: yaml.ScalarNode, Value: path[len(path)-1], HeadComment: comment("# ", s.why, 100-2*(len(path)-1))},
			&yaml.Node{Kind: yaml.ScalarNode, Value: s.value, Tag: s.tag})
	}
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}, HeadComment: comment("# ", strings.Join(p.flinkHeader(name), "\n"), 100)}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		panic(err) // encoding a tree of plain scalars cannot fail
	}
	_ = enc.Close() // flushes into a bytes.Buffer, which cannot fail
	return spaceComments(buf.Bytes(), "#")
}

// child returns the mapping under key in m, adding it when missing.
func child(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	c := &yaml.Node{Kind: yaml.MappingNode}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, c)
	return c
}

// prefixClash reports a key that is a prefix of another: nested YAML cannot
// hold both, so such a file is written flat.
func prefixClash(ss []setting) bool {
	for _, a := range ss {
		for _, b := range ss {
			if strings.HasPrefix(b.key, a.key+".") {
				return true
			}
		}
	}
	return false
}

// hadoopXML renders a Hadoop configuration file with etree, each property
// after a comment with its reason.
func hadoopXML(header []string, ss []setting) []byte {
	doc := etree.NewDocument()
	doc.CreateProcInst("xml", `version="1.0" encoding="UTF-8"`)
	doc.CreateComment(xmlComment(strings.Join(header, "\n"), 0))
	conf := doc.CreateElement("configuration")
	for _, s := range ss {
		conf.CreateComment(xmlComment(s.why, 2))
		prop := conf.CreateElement("property")
		prop.CreateElement("name").SetText(s.key)
		prop.CreateElement("value").SetText(s.value)
	}
	doc.Indent(2)
	b, err := doc.WriteToBytes()
	if err != nil {
		panic(err) // writing a fixed in-memory tree cannot fail
	}
	return spaceComments(b, "<!--")
}

// xmlComment wraps text for a comment at indent; "--" may not occur in one.
func xmlComment(text string, indent int) string {
	text = strings.ReplaceAll(text, "--", "- -")
	lead := strings.Repeat(" ", indent+5)
	return " " + strings.TrimPrefix(comment(lead, text, 100), lead) + " "
}

// comment wraps text at width columns, each line starting with lead; a
// newline in text starts a new line.
func comment(lead, text string, width int) string {
	var lines []string
	for para := range strings.SplitSeq(text, "\n") {
		line := lead
		for _, w := range strings.Fields(para) {
			if len(line) > len(lead) && len(line)+1+len(w) > width {
				lines = append(lines, line)
				line = lead
			}
			if len(line) > len(lead) {
				line += " "
			}
			line += w
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// spaceComments puts a blank line before each comment that follows a
// value, and before each top-level YAML key that follows one, so every
// setting reads as a paragraph of its own.
func spaceComments(b []byte, marker string) []byte {
	lines := strings.Split(string(b), "\n")
	var out []string
	for i, l := range lines {
		if i > 0 {
			prev := strings.TrimSpace(lines[i-1])
			value := prev != "" && !strings.HasPrefix(prev, marker) && !strings.HasSuffix(prev, ":") &&
				prev != "<configuration>" && !strings.HasSuffix(prev, "-->")
			topKey := marker == "#" && l != "" && l[0] != ' ' && l[0] != '#'
			if value && (strings.HasPrefix(strings.TrimSpace(l), marker) || topKey) {
				out = append(out, "")
			}
		}
		out = append(out, l)
	}
	return []byte(strings.Join(out, "\n"))
}
