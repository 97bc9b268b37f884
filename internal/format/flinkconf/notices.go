package flinkconf

import (
	"fmt"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Notice codes recorded by Parse. Rules decide what to report.
const (
	// NoticeMissingSpace: a line with ':' but no ": " ("state.backend:rocksdb",
	// "key:<TAB>value"). Flink skips it; Key is the key it would have set.
	NoticeMissingSpace = "legacy-missing-space"
	// NoticeNoSeparator: a line with no ':' at all. Flink skips it.
	NoticeNoSeparator = "legacy-no-separator"
	// NoticeEmptyValue: "key:" or "key: " with nothing (or only a comment)
	// after it and no indented lines below. Flink skips it.
	NoticeEmptyValue = "legacy-empty-value"
	// NoticeNestedYAML: nested YAML. On a "key:" line followed by indented
	// lines it marks the skipped parent; on an indented "child: value" line
	// that Flink reads as the top-level key "child" it carries the dotted key
	// the author meant ("execution.checkpointing.interval") in Key.
	NoticeNestedYAML = "legacy-nested-yaml"
	// NoticeEmptyKey: ": value". Flink skips it.
	NoticeEmptyKey = "legacy-empty-key"
	// NoticeCommentCut: a '#' that YAML would not read as a comment (not after
	// whitespace, or inside quotes) cut the line; Span covers the dropped text.
	NoticeCommentCut = "legacy-comment-cut"
	// NoticeQuotedValue: a value in matching quotes. Flink keeps the quotes,
	// so `"10 s"` is not a duration.
	NoticeQuotedValue = "legacy-quoted-value"
	// NoticeQuotedKey: a key in matching quotes; Flink keeps them, so the key
	// never matches an option.
	NoticeQuotedKey = "legacy-quoted-key"
	// NoticeDuplicateKey: a key set again later. Span is the overridden
	// key/value pair; the message names the line that wins.
	NoticeDuplicateKey = "legacy-duplicate-key"
	// NoticeYAMLList: a value written as a YAML flow list or map ("[a, b]",
	// "{k: v}"); Flink reads it literally.
	NoticeYAMLList = "legacy-yaml-list"
	// NoticeBOM: the file starts with a UTF-8 byte order mark, which Java's
	// reader keeps: it becomes part of the first key.
	NoticeBOM = "legacy-bom"
	// NoticeInvalidUTF8: a key or value holds bytes that are not UTF-8; Flink
	// reads each as U+FFFD.
	NoticeInvalidUTF8 = "legacy-invalid-utf8"
)

func (p *parser) notice(code string, sp parsed.Span, key, format string, args ...any) {
	p.f.Notices = append(p.f.Notices, parsed.Notice{
		Code:    code,
		Message: fmt.Sprintf(format, args...),
		File:    p.f.Path,
		Span:    sp,
		Key:     key,
	})
}
