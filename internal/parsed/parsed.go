// Package parsed holds the format-neutral view of one parsed configuration
// file: its entries as the consuming system (Flink or Hadoop) reads them, with
// the byte spans of every key and value, plus what that system would silently
// drop or misread and any parse error. Every format parser returns a *File.
package parsed

import (
	"fmt"
)

// Format names the kind of a configuration file.
type Format string

// The formats ckptlint reads.
const (
	FlinkConfLegacy Format = "flink-conf"        // flink-conf.yaml, Flink's line parser
	FlinkConfigYAML Format = "flink-config-yaml" // config.yaml, YAML 1.2 (Flink >= 1.19)
	FlinkDeployment Format = "flink-deployment"  // Kubernetes FlinkDeployment, spec.flinkConfiguration
	HadoopCoreSite  Format = "core-site"         // core-site.xml
	HadoopHDFSSite  Format = "hdfs-site"         // hdfs-site.xml
)

// Kind is the type a value has in its file. Legacy flink-conf.yaml and Hadoop
// XML values are always KindString; config.yaml keeps YAML 1.2 core types.
type Kind string

// Value kinds.
const (
	KindString Kind = "string"
	KindInt    Kind = "int"
	KindFloat  Kind = "float"
	KindBool   Kind = "bool"
	KindNull   Kind = "null"
	KindList   Kind = "list" // Value holds Flink's flow-string rendering of the list
)

// Entry is one key/value pair as the consuming system sees it.
type Entry struct {
	// Key is the effective key: flattened with dots for nested YAML, mapped to
	// its current name for deprecated Hadoop keys.
	Key string `json:"key"`
	// Value is the value text the system reads (quotes kept by Flink's legacy
	// parser, Hadoop substitution applied).
	Value string `json:"value"`
	// Raw is the value exactly as written, when it differs from Value
	// (before ${var} substitution, or the source text of a YAML scalar).
	Raw  string `json:"raw,omitempty"`
	Kind Kind   `json:"kind"`
	// File is the file the entry was read from; it differs from File.Path for
	// entries pulled in through xi:include.
	File string `json:"file"`
	// WrittenKey is the key as spelled in the file when it differs from Key
	// (a deprecated Hadoop name, or the last segment of a nested YAML key).
	WrittenKey string `json:"written_key,omitempty"`
	KeySpan    Span   `json:"key_span"`
	ValueSpan  Span   `json:"value_span"`
	// Nested is true when the key was assembled from a nested YAML mapping.
	Nested bool `json:"nested,omitempty"`
	// Final is Hadoop's <final>true</final>.
	Final bool `json:"final,omitempty"`
	// Sources are Hadoop <source> elements.
	Sources []string `json:"sources,omitempty"`
	// Doc is the index of the YAML document in a multi-document file (0-based).
	Doc int `json:"doc,omitempty"`
	// Placeholders are the kinds of the unrendered template placeholders in
	// the key or the value (internal/placeholder): the entry's real key or value
	// is unknown until the file is rendered.
	Placeholders []string `json:"placeholders,omitempty"`
	// Unknown says why the value the program would use is not known (a
	// Hadoop value that refers to an external entity ckptlint does not
	// read); "" otherwise.
	Unknown string `json:"unknown,omitempty"`
}

// Notice records something the consuming system does silently that a user
// would not expect: a dropped line, a truncated value, a duplicate key, an
// override of a final Hadoop key. Rules report notices; parsers never do.
type Notice struct {
	Code    string `json:"code"` // stable, e.g. "legacy-missing-space"
	Message string `json:"message"`
	File    string `json:"file"`
	Span    Span   `json:"span"`
	Key     string `json:"key,omitempty"`
}

// ErrKind says why a file is not linted, for the headline of its CKPT000
// finding (internal/evaluate): Flink or Hadoop refuses it, and why, or
// ckptlint does not read it, and why. ParseError.Msg gives the details.
type ErrKind string

// The kinds of ParseError.
const (
	// ErrRefused is a file Flink or Hadoop refuses to load, for a reason
	// no other kind names.
	ErrRefused ErrKind = ""
	// ErrXML is a Hadoop file that is not well-formed XML.
	ErrXML ErrKind = "xml"
	// ErrYAML is a Flink file that is not valid YAML.
	ErrYAML ErrKind = "yaml"
	// ErrConfig is YAML that Flink does not take as a configuration: a
	// key that is not a string, a duplicate key, more than one document,
	// a top level that is not a mapping.
	ErrConfig ErrKind = "config"
	// ErrInclude is a Hadoop file whose xi:include Hadoop fails on.
	ErrInclude ErrKind = "include"
	// ErrLimit is a file past a limit ckptlint sets on what it reads
	// (bytes, lines, keys, nesting, alias and entity expansion).
	ErrLimit ErrKind = "limit"
	// ErrEncoding is a file that is not text in an encoding ckptlint
	// decodes.
	ErrEncoding ErrKind = "encoding"
	// ErrOutside is a file outside the repository (a symlink leading out).
	ErrOutside ErrKind = "outside"
	// ErrUndecided is a config.yaml ckptlint cannot tell is Flink's.
	ErrUndecided ErrKind = "undecided"
)

// ParseError is a file the system itself would refuse to load, or that
// ckptlint cannot read. It always carries a position.
type ParseError struct {
	File string `json:"file"`
	Pos  Pos    `json:"pos"`
	Msg  string `json:"message"`
	// Kind says why the file is not linted, in the words of a headline;
	// Msg says it in full.
	Kind ErrKind `json:"kind,omitempty"`
	// Unread is true when the file could not be read at all (permission,
	// I/O error, the run's input budget): the run then ends with exit code
	// 2 after every other file is linted.
	Unread bool `json:"unread,omitempty"`
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

// File is one parsed configuration file.
type File struct {
	Path    string   `json:"path"` // slash-separated, as given to the parser
	Format  Format   `json:"format"`
	Entries []Entry  `json:"entries"` // in file order, duplicates included
	Notices []Notice `json:"notices,omitempty"`
	// Err is set when the file could not be parsed; Entries then holds what
	// was read before the error, if anything.
	Err *ParseError `json:"error,omitempty"`
	// Includes lists files pulled in through xi:include (Hadoop only).
	Includes []string `json:"includes,omitempty"`
	// Nested reports that a config.yaml uses nested mappings (its style, for
	// editors); false means flat "a.b.c: v" keys.
	Nested bool `json:"nested,omitempty"`
	// Src is the file's text, where its spans point: the bytes as read, or
	// for a Hadoop file in UTF-16 or a single-byte charset the UTF-8 text
	// they decode to (internal/discover Tree.Raw keeps those bytes).
	Src []byte `json:"-"`
	// Encoding names the encoding Src was decoded from when the reader
	// decoded it ("UTF-16LE": a config.yaml with that byte-order mark);
	// "" when Src is the bytes as read (or a Hadoop file, whose reader
	// keeps its encoding in its document).
	Encoding string `json:"-"`
	// Template is set when the file holds unrendered template placeholders
	// (docs/templates.md).
	Template *Template `json:"template,omitempty"`
	// Comments are the file's comments, as far as its reader read it: nil
	// when it read none (a file over the size cap, YAML that does not
	// parse); after a Hadoop XML error, those before it.
	Comments *Comments `json:"-"`
	// IncludeComments are the comments of the xi:include targets the file
	// read (Hadoop only), each target once, in the order first read.
	IncludeComments []*Comments `json:"-"`
	// Embed is set for a file written inside another file (a ConfigMap's
	// data, a compose FLINK_PROPERTIES block): Path is then the
	// container's, and Embed says where the file lies in it.
	Embed *Embed `json:"embed,omitempty"`
}

// Embed is where a file written inside another file lies in it. An Exact
// one is a YAML literal block (or a heredoc) whose content lines lie
// verbatim in the container, bytes [Start, End), each carrying Indent:
// the file's Src is the container with everything before Start blanked
// and cut at End, so its spans are the container's, and an edit of Src
// between Start and End is an edit of the container (a new line taking
// Indent). Any other (a quoted scalar, a list item) is located at Line:
// every span of the file points there, and nothing in it is edited.
type Embed struct {
	Exact      bool   `json:"exact"`
	Start, End int    `json:"-"`
	Indent     string `json:"-"`
	Line       int    `json:"line"`
	// Container are the bytes of the file holding it.
	Container []byte `json:"-"`
}

// Template describes the placeholders of a file read as a template.
type Template struct {
	// Count is the number of placeholders by kind ("${VAR}": 3).
	Count map[string]int `json:"count"`
	// First is where the first placeholder is.
	First Pos `json:"first"`
	// Skipped is set when the file is mostly template and is not read at
	// all; Reason says why.
	Skipped bool   `json:"skipped,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

// Effective returns the entries as a map from key to the entry that wins:
// for Flink the last occurrence; for Hadoop the last occurrence unless an
// earlier one was final (parsers already apply that and keep only winners
// in Lookup order). It relies on the parser having put winners last.
func (f *File) Effective() map[string]*Entry {
	m := make(map[string]*Entry, len(f.Entries))
	for i := range f.Entries {
		e := &f.Entries[i]
		if prev, ok := m[e.Key]; ok && prev.Final {
			continue
		}
		m[e.Key] = e
	}
	return m
}

// Lookup returns the winning entry for key, or nil.
func (f *File) Lookup(key string) *Entry {
	var won *Entry
	for i := range f.Entries {
		e := &f.Entries[i]
		if e.Key != key {
			continue
		}
		if won != nil && won.Final {
			continue
		}
		won = e
	}
	return won
}

// MaxFileSize caps what any parser reads; larger files are a parse error.
const MaxFileSize = 16 << 20

// MaxLines and MaxEntries bound the cost of one file: memory grows with
// the number of keys (every key becomes a value in the policy input), so a
// file of many short lines costs far more than its size. A file over
// either limit is a parse error, checked before parsing (lines) and after
// (entries, for Hadoop XML with many properties on one line). Real
// configuration files are far below both: Hadoop's own hdfs-default.xml
// has about 6,500 lines and 900 properties.
const (
	MaxLines   = 50_000
	MaxEntries = 10_000
)

// Span is the empty span at the error, or at the top of the file when the
// error has no position (or e is nil).
func (e *ParseError) Span() Span {
	if e == nil || e.Pos.Line == 0 {
		return At(Top())
	}
	return At(e.Pos)
}
