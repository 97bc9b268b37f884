package flinkconf

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

func TestParseSpans(t *testing.T) {
	pos := func(line, col, off int) parsed.Pos { return parsed.Pos{Line: line, Col: col, Offset: off} }
	tests := []struct {
		name      string
		src       string
		entry     int // index into Entries
		keySpan   parsed.Span
		valueSpan parsed.Span
	}{
		{name: "first line", src: "a: b\n", keySpan: parsed.Span{Start: pos(1, 1, 0), End: pos(1, 2, 1)}, valueSpan: parsed.Span{Start: pos(1, 4, 3), End: pos(1, 5, 4)}},
		{name: "trimmed key and value", src: "   mykey5    :    myvalue5    \n",
			keySpan: parsed.Span{Start: pos(1, 4, 3), End: pos(1, 10, 9)}, valueSpan: parsed.Span{Start: pos(1, 19, 18), End: pos(1, 27, 26)}},
		{name: "CRLF: the CR is not part of the value", src: "a: b\r\nkey: value\r\n", entry: 1,
			keySpan: parsed.Span{Start: pos(2, 1, 6), End: pos(2, 4, 9)}, valueSpan: parsed.Span{Start: pos(2, 6, 11), End: pos(2, 11, 16)}},
		{name: "no final newline", src: "a: b\nkey: value", entry: 1,
			keySpan: parsed.Span{Start: pos(2, 1, 5), End: pos(2, 4, 8)}, valueSpan: parsed.Span{Start: pos(2, 6, 10), End: pos(2, 11, 15)}},
		{name: "value cut at hash", src: "a: foo#bar\n", valueSpan: parsed.Span{Start: pos(1, 4, 3), End: pos(1, 7, 6)}, keySpan: parsed.Span{Start: pos(1, 1, 0), End: pos(1, 2, 1)}},
		{name: "value before a comment", src: "x: 10 s   # ten seconds\n", keySpan: parsed.Span{Start: pos(1, 1, 0), End: pos(1, 2, 1)}, valueSpan: parsed.Span{Start: pos(1, 4, 3), End: pos(1, 8, 7)}},
		{name: "multi-byte characters count as bytes", src: "é: ü\n", keySpan: parsed.Span{Start: pos(1, 1, 0), End: pos(1, 3, 2)}, valueSpan: parsed.Span{Start: pos(1, 5, 4), End: pos(1, 7, 6)}},
		{name: "after a lone CR the line number stays (parsed.Lines counts LF)", src: "a: b\rc: d\n", entry: 1,
			keySpan: parsed.Span{Start: pos(1, 6, 5), End: pos(1, 7, 6)}, valueSpan: parsed.Span{Start: pos(1, 9, 8), End: pos(1, 10, 9)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse("flink-conf.yaml", []byte(tt.src))
			checkSpans(t, []byte(tt.src), f)
			e := f.Entries[tt.entry]
			if diff := cmp.Diff(tt.keySpan, e.KeySpan); diff != "" {
				t.Errorf("KeySpan of %q (-want +got):\n%s", e.Key, diff)
			}
			if diff := cmp.Diff(tt.valueSpan, e.ValueSpan); diff != "" {
				t.Errorf("ValueSpan of %q (-want +got):\n%s", e.Key, diff)
			}
		})
	}
}

func TestParseNoticeSpans(t *testing.T) {
	src := "a: 1\nstate.backend:rocksdb\nb: x#y\na: 2\n"
	f := Parse("flink-conf.yaml", []byte(src))
	got := map[string]string{}
	for _, n := range f.Notices {
		got[n.Code] = src[n.Span.Start.Offset:n.Span.End.Offset]
	}
	want := map[string]string{
		NoticeDuplicateKey: "a: 1",                  // the overridden pair
		NoticeMissingSpace: "state.backend:rocksdb", // the skipped line's text
		NoticeCommentCut:   "#y",                    // the dropped text
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("notice spans (-want +got):\n%s", diff)
	}
}

func TestParseErrors(t *testing.T) {
	t.Run("NUL byte", func(t *testing.T) {
		src := []byte("a: b\nc: \x00d\ne: f\n")
		f := Parse("conf/flink-conf.yaml", src)
		want := &parsed.ParseError{File: "conf/flink-conf.yaml", Pos: parsed.Pos{Line: 2, Col: 4, Offset: 8}, Msg: "NUL byte: not a text file", Kind: parsed.ErrEncoding}
		if diff := cmp.Diff(want, f.Err); diff != "" {
			t.Errorf("Err (-want +got):\n%s", diff)
		}
		if len(f.Entries) != 1 || f.Entries[0].Key != "a" {
			t.Errorf("Entries = %+v, want only the line before the NUL", f.Entries)
		}
	})
	t.Run("size cap", func(t *testing.T) {
		src := bytes.Repeat([]byte("a: b\n"), parsed.MaxFileSize/5+1)
		f := Parse("flink-conf.yaml", src)
		if f.Err == nil || f.Err.Pos.Line != 1 || !strings.Contains(f.Err.Msg, "at most 16777216") || len(f.Entries) != 0 {
			t.Errorf("Err = %v, entries %d; want a size error and no entries", f.Err, len(f.Entries))
		}
	})
	t.Run("file fields", func(t *testing.T) {
		src := []byte("a: b\n")
		f := Parse("conf/flink-conf.yaml", src)
		if f.Path != "conf/flink-conf.yaml" || f.Format != parsed.FlinkConfLegacy || !bytes.Equal(f.Src, src) || f.Err != nil {
			t.Errorf("File = %+v", f)
		}
	})
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{name: "base name", in: "flink-conf.yaml", want: true},
		{name: "slash path", in: "deploy/conf/flink-conf.yaml", want: true},
		{name: "backslash path", in: `C:\flink\conf\flink-conf.yaml`, want: true},
		{name: "config.yaml", in: "conf/config.yaml", want: false},
		{name: "other suffix", in: "flink-conf.yaml.bak", want: false},
		{name: "case matters", in: "Flink-Conf.yaml", want: false},
		{name: "yml", in: "flink-conf.yml", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Detect(tt.in); got != tt.want {
				t.Errorf("Detect(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}
