package hadoopxml

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Resubstitute returns f with the ${var} references of its entries
// expanded against lookup instead of f's own keys, or f itself when that
// changes nothing. Hadoop expands a value when it is read, over the merged
// configuration of every resource it loaded (Configuration.get:
// substituteVars(getProps().getProperty(name)), Hadoop 3.4.1 L1260-1270),
// so ${hadoop.tmp.dir} in hdfs-site.xml reads core-site.xml's
// hadoop.tmp.dir, and a later resource's value of a key wins there too.
// lookup returns a key's raw value in that configuration and, when it is
// unknown, why (an external entity); an entry that reads an unknown value
// is unknown for the same reason. Environment variables and JVM system
// properties stay as written (expand). The depth notices are made again;
// the copy carries no placeholder marks: the caller marks it (internal/template).
func Resubstitute(f *parsed.File, lookup func(key string) (raw, unknown string, ok bool)) *parsed.File {
	if f == nil || f.Err != nil {
		return f
	}
	type result struct {
		value, raw, unknown string
		err                 error
	}
	var results map[int]result
	for i := range f.Entries {
		e := &f.Entries[i]
		raw := e.Value
		if e.Raw != "" {
			raw = e.Raw
		}
		if e.Kind == parsed.KindNull || !strings.Contains(raw, "${") {
			continue
		}
		var through []string
		v, err := expand(raw, func(k string) (string, bool) {
			r, why, ok := lookup(k)
			if ok && why != "" {
				through = append(through, fmt.Sprintf("%s (through ${%s})", why, k))
			}
			return r, ok
		}, nil)
		r := result{value: v, unknown: e.Unknown, err: err}
		if err != nil {
			r.value = raw
		} else if v != raw {
			r.raw = raw
		}
		if err == nil && len(through) > 0 {
			parts := through
			if e.Unknown != "" {
				parts = append([]string{e.Unknown}, through...)
			}
			r.unknown = strings.Join(slices.Compact(parts), "; ")
		}
		if results == nil {
			results = map[int]result{}
		}
		results[i] = r
	}
	same := true
	for i, r := range results {
		e := &f.Entries[i]
		if r.value != e.Value || r.raw != e.Raw || r.unknown != e.Unknown || (r.err != nil) != hasDepthNotice(f, e) {
			same = false
			break
		}
	}
	if same {
		return f
	}
	g := &parsed.File{Path: f.Path, Format: f.Format, Err: f.Err, Includes: f.Includes, Nested: f.Nested, Src: f.Src,
		Comments: f.Comments, IncludeComments: f.IncludeComments, Entries: slices.Clone(f.Entries)}
	for i := range g.Entries {
		e := &g.Entries[i]
		e.Placeholders = nil
		if r, ok := results[i]; ok {
			e.Value, e.Raw, e.Unknown = r.value, r.raw, r.unknown
		}
	}
	for _, n := range f.Notices {
		if n.Code != NoticeSubstitutionDepth {
			g.Notices = append(g.Notices, n)
		}
	}
	for i, r := range results {
		if r.err != nil {
			e := &g.Entries[i]
			g.Notices = append(g.Notices, parsed.Notice{Code: NoticeSubstitutionDepth, Message: r.err.Error(), File: e.File, Span: e.ValueSpan, Key: e.Key})
		}
	}
	// the order Parse gives notices: the file, then its includes, each by position
	rank := map[string]int{f.Path: 0}
	for i, inc := range f.Includes {
		if _, ok := rank[inc]; !ok {
			rank[inc] = i + 1
		}
	}
	slices.SortStableFunc(g.Notices, func(a, b parsed.Notice) int {
		return cmp.Or(cmp.Compare(rank[a.File], rank[b.File]), cmp.Compare(a.Span.Start.Offset, b.Span.Start.Offset))
	})
	return g
}

// hasDepthNotice reports whether f notes the substitution depth error of e.
func hasDepthNotice(f *parsed.File, e *parsed.Entry) bool {
	return slices.ContainsFunc(f.Notices, func(n parsed.Notice) bool {
		return n.Code == NoticeSubstitutionDepth && n.File == e.File && n.Span == e.ValueSpan
	})
}
