package flinkyaml

import (
	"bytes"
	"errors"
	"io"

	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// ParseConfig reads a Flink config.yaml (the standard YAML parser of Flink
// 1.19 and later, Flink 1.20 GlobalConfiguration.java L292-316) and returns
// its flattened entries in file order. The result always has Path, Format and Src set; Err is set when
// Flink would refuse the file or ckptlint cannot read it, and Entries then
// holds what was read before the problem.
//
// Entry.Value is the value as Flink holds it: a string without its quotes,
// an int in decimal (010 is "10", 0x1F is "31"), a bool in lower case, a
// float as Java prints it (1e3 is "1000.0"), a list as Flink's flow string,
// "" for null. Entry.Raw is the token's source text when it differs, and
// ValueSpan covers that token; an empty value has a zero-width span where
// yaml.v3 places it (right after the ':').
//
// Comments holds the file's comments when yaml.v3 reads every document of
// the file.
//
// An empty file, or one with only comments or a null document, is an empty
// configuration. The top level must be a mapping; a scalar or a sequence is
// an error (Flink fails with a ClassCastException). Only one YAML document
// is allowed.
func ParseConfig(path string, src []byte) *parsed.File {
	if perr := checkSize(path, src); perr != nil {
		return &parsed.File{Path: path, Format: parsed.FlinkConfigYAML, Src: src, Err: perr}
	}
	if enc := yamlEncoding(src); enc != nil {
		return parseUnreadEncoding(path, src, enc)
	}
	if name, dec := utf16BOM(src); dec != nil {
		return parseUTF16(path, src, name, dec)
	}
	return parseText(path, src)
}

// parseText is ParseConfig of src as it is: UTF-8 (with or without its
// byte-order mark), or the text another encoding decoded to, which is not
// told again.
func parseText(path string, src []byte) *parsed.File {
	f := &parsed.File{Path: path, Format: parsed.FlinkConfigYAML, Src: src}
	loc := newLocator(src)
	in, perr := yamlInput(path, src, loc)
	if perr != nil {
		f.Err = perr
		return f
	}
	dec := yaml.NewDecoder(bytes.NewReader(in))
	var doc yaml.Node
	if err := decodeNext(dec, &doc); err != nil {
		if !errors.Is(err, io.EOF) {
			f.Err = yamlError(path, loc, err)
		} else {
			f.Comments = loc.comments(path, nil) // nothing but comments and blank lines
		}
		return f
	}
	fl := newFlattener(loc, f, 0, true, &aliasBudget{})
	f.Err = fl.root(docRoot(&doc))
	var extra yaml.Node
	switch err := decodeNext(dec, &extra); {
	case errors.Is(err, io.EOF):
		f.Comments = loc.comments(path, []*yaml.Node{&doc})
	case f.Err != nil:
	case err != nil:
		f.Err = yamlError(path, loc, err)
	default:
		f.Err = fl.failNode(&extra, "expected a single YAML document, found another one: Flink loads config.yaml as one document")
		if docs := decodeRest(dec, &doc, &extra); docs != nil {
			f.Comments = loc.comments(path, docs)
		}
	}
	if f.Err == nil {
		f.Err = fl.keyErr
	}
	return f
}

// root flattens the top node of a config.yaml document.
func (f *flattener) root(n *yaml.Node) *parsed.ParseError {
	if n == nil {
		return nil
	}
	if err := f.countCollectionAliases(n); err != nil {
		return err
	}
	switch n.Kind {
	case yaml.MappingNode:
		return f.mapping(n, "", 0)
	case yaml.ScalarNode:
		v, _, err := f.scalarOf(n, -1, "document")
		if err != nil {
			return err
		}
		if v.kind == parsed.KindNull {
			return nil // "---" alone, or "~": Flink reads an empty configuration
		}
	}
	return f.failNode(n, "expected a mapping of keys to values at the top level, found a %s: Flink fails to load it (ClassCastException)",
		kindName(n))
}

// decodeRest decodes the documents of dec after those read, for their
// comments: nil when one of them is not valid YAML.
func decodeRest(dec *yaml.Decoder, read ...*yaml.Node) []*yaml.Node {
	for {
		n := &yaml.Node{}
		switch err := decodeNext(dec, n); {
		case errors.Is(err, io.EOF):
			return read
		case err != nil:
			return nil
		}
		read = append(read, n)
	}
}
