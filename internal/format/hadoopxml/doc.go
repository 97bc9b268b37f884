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
// a redefinition of a final key, a CDATA section, ...) is reported as a
// parsed.Notice; what Hadoop (or ckptlint) refuses to load is a
// parsed.ParseError.
//
// # Entries and Lookup
//
// File.Entries holds, in reading order (includes inlined), every definition
// that reaches Hadoop's loadProperty with a value, so parsed.File.Lookup
// returns the entry whose Value Hadoop's get() would return:
//
//   - a definition with an empty or missing <value> sets nothing in Hadoop
//     and is not an entry (notice xml-empty-value; its Property.Index is -1);
//     the one exception is the first final definition of a key, which is an
//     entry so that Lookup stops there: it carries the value held so far, or
//     is a KindNull entry (Value "") when there is none, meaning "no value,
//     and final";
//   - definitions after a final one stay in Entries (Lookup skips them);
//   - Value has ${var} expanded against the file's own effective keys;
//     environment variables (unless Options.Getenv is given) and JVM system
//     properties are unknown and stay as written; Raw keeps the text before
//     expansion when it differs. Resubstitute expands the entries again
//     over the merged configuration of several files, as Hadoop does.
//
// CDATA: Hadoop's StAX loop (HADOOP-14216) first appended only CHARACTERS
// events, so CDATA text was lost on 2.9.0-2.10.0, 3.0.x, 3.1.0-3.1.3 and
// 3.2.0-3.2.1; HADOOP-16749 (in 2.10.1, 3.1.4, 3.2.2 and 3.3.0, per the
// release changelogs) appends CDATA events too (TestConfiguration.testCDATA). Parse reads CDATA as text (notice
// xml-cdata, giving the other reading); Options.IgnoreCDATA reads as the
// releases that drop it (notice xml-cdata-ignored; CDATAIgnored says which).
// ValueSpan covers the CDATA markers either way.
//
// Encodings: UTF-16 and declared single-byte charsets are decoded with
// golang.org/x/text (encoding.go); File.Src then holds the decoded text,
// every span refers to it, and the editor maps its edits back to the file's
// bytes and encoding.
//
// Positions come from an encoding/xml pass in strict mode
// (Decoder.InputOffset around every Token call). Internal DTD entities are
// expanded within the JDK's secure-processing limits (dtd.go); external
// (SYSTEM/PUBLIC) entities are never read: a value using one is unknown
// (Entry.Unknown, notice xml-external-entity); internal parameter entities
// are expanded between declarations as Woodstox does (XML 1.0 §4.4.8),
// external ones are never fetched (notice xml-parameter-entity).
//
// The root element may have any name (NoticeRootElement); XML 1.1 is read
// with its line ends (encoding.go lineEnds11); the internal subset's
// <!ATTLIST> defaults are applied as Woodstox applies them (attlist.go).
//
// Sources: Hadoop 3.4.1 Configuration.java (Parser, loadProperty,
// checkForOverride, substituteVars) and TestConfiguration.java; Woodstox
// 5.4.0, the parser Hadoop 3.4.1 ships; docs/input.md.
package hadoopxml
