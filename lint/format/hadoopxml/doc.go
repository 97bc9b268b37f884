// Package hadoopxml parses Hadoop core-site.xml and hdfs-site.xml files the
// way org.apache.hadoop.conf.Configuration (Hadoop 3.x) loads them, keeping
// the byte span of every name, value and <property> element.
//
// The parser emulates Hadoop's StAX loop (Configuration.Parser) rather than
// building a tree: elements are matched by local name wherever they occur,
// <name> is trimmed, <value> is kept as written, an empty <value> is no value,
// only <final>true</final> is final, the first final definition of a key wins,
// deprecated keys are stored under their replacement, xi:include is inlined
// and ${var} references are substituted. What Hadoop does silently (ignoring
// a redefinition of a final key, dropping CDATA text, ...) is reported as a
// cfgfile.Notice; what Hadoop (or ckptlint) refuses to load is a
// cfgfile.ParseError.
//
// # Entries and Lookup
//
// File.Entries holds, in reading order (includes inlined), every definition
// that reaches Hadoop's loadProperty with a value, so cfgfile.File.Lookup
// returns the entry whose Value Hadoop's get() would return:
//
//   - a definition with an empty or missing <value> sets nothing in Hadoop
//     and is not an entry (notice xml-empty-value; its Property.Index is -1);
//     the one exception is the first final definition of a key, which is an
//     entry so that Lookup stops there: it carries the value held so far, or
//     is a KindNull entry (Value "") when there is none, meaning "no value,
//     and final";
//   - definitions after a final one stay in Entries (Lookup skips them);
//   - Value has ${var} expanded against the file's own effective keys and
//     the environment given in Options; Raw keeps the text before expansion
//     when it differs. Use Substitute with the merged keys of several files
//     to expand what is left.
//
// CDATA: Hadoop 3.x reads XML with Woodstox, which reports CDATA sections as
// their own events, and Configuration.Parser only collects CHARACTERS events,
// so text inside <![CDATA[...]]> never reaches a name or value
// (<value><![CDATA[x]]></value> is no value). This package does the same and
// raises xml-cdata-ignored; ValueSpan still covers the CDATA markers.
//
// Positions come from an encoding/xml pass in strict mode
// (Decoder.InputOffset around every Token call); DTD entities are never
// expanded, so XXE and entity-expansion bombs are parse errors.
//
// Sources: Hadoop 3.4.1 Configuration.java and TestConfiguration.java as
// summarised in ckptlint's shared reference (domain.md §3.1, §3.6).
package hadoopxml
