package hadoopxml

import (
	"io/fs"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// conf wraps property XML the way TestConfiguration's startConfig/endConfig do.
func conf(body string) string {
	return "<?xml version=\"1.0\"?>\n<configuration>\n" + body + "</configuration>\n"
}

// prop is TestConfiguration.appendProperty.
func prop(name, value string) string {
	return "<property><name>" + name + "</name><value>" + value + "</value></property>\n"
}

// finalProp is appendProperty(name, value, true).
func finalProp(name, value string) string {
	return "<property><name>" + name + "</name><value>" + value + "</value><final>true</final></property>\n"
}

// entryView is the part of an Entry the semantic tests compare.
type entryView struct {
	Key, Value, Raw, WrittenKey, File string
	Final                             bool
	Kind                              parsed.Kind
	Sources                           []string
}

func viewEntries(f *parsed.File) []entryView {
	var out []entryView
	for _, e := range f.Entries {
		out = append(out, entryView{Key: e.Key, Value: e.Value, Raw: e.Raw, WrittenKey: e.WrittenKey,
			File: e.File, Final: e.Final, Kind: e.Kind, Sources: e.Sources})
	}
	return out
}

func noticeCodes(f *parsed.File) []string {
	var out []string
	for _, n := range f.Notices {
		out = append(out, n.Code)
	}
	return out
}

// looked renders what Lookup gives for key: the value, "<nil>" for no entry,
// or "<null>" for a KindNull entry.
func looked(f *parsed.File, key string) string {
	e := f.Lookup(key)
	switch {
	case e == nil:
		return "<nil>"
	case e.Kind == parsed.KindNull:
		return "<null>"
	}
	return e.Value
}

// memFS is an Options.ReadFile over a map; missing paths are fs.ErrNotExist.
func memFS(files map[string]string) func(string) ([]byte, error) {
	return func(p string) ([]byte, error) {
		if s, ok := files[p]; ok {
			return []byte(s), nil
		}
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	}
}

func include(href string) string {
	return `<xi:include href="` + href + `" xmlns:xi="http://www.w3.org/2001/XInclude"/>` + "\n"
}

func includeWithFallback(href, fallback string) string {
	return `<xi:include href="` + href + `" xmlns:xi="http://www.w3.org/2001/XInclude"><xi:fallback>` +
		fallback + "</xi:fallback></xi:include>\n"
}
