package model

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/ckptlint/ckptlint/internal/format/hadoopxml"
	"github.com/ckptlint/ckptlint/internal/parsed"
)

// readsName reports whether Flink version v reads spelling n.
func readsName(n name, v Version) bool {
	if v.Less(n.Since) {
		return false
	}
	return n.Until.IsZero() || v.Less(n.Until)
}

// readByCatalogue reports whether Flink version v reads key as any setting
// the catalogue knows: a spelling of a flinkKeys entry, an old name of
// renamedKeys or another meaning of a key (otherMeanings). A key that one
// entry does not read on v but another does (state.checkpoints.dir on 1.4)
// is not unread.
func readByCatalogue(key string, v Version) bool {
	for _, kd := range flinkKeys {
		for _, n := range kd.Names {
			if n.Key == key && readsName(n, v) {
				return true
			}
		}
	}
	for _, ns := range [][]name{renamedKeys, otherMeanings} {
		for _, n := range ns {
			if n.Key == key && readsName(n, v) {
				return true
			}
		}
	}
	return false
}

// unreadCatalogue maps every key of the catalogue that Flink version v does
// not read as any setting to why (unreadMessage).
func unreadCatalogue(v Version) map[string]string {
	out := map[string]string{}
	since := map[string]Version{}
	for _, ns := range [][]name{flattenNames(), renamedKeys, otherMeanings} {
		for _, n := range ns {
			if readByCatalogue(n.Key, v) {
				continue
			}
			// Of a key's entries, the one with the earliest release names
			// when the key first exists (state.checkpoints.dir: 1.2).
			if s, ok := since[n.Key]; ok && !n.Since.Less(s) {
				continue
			}
			since[n.Key] = n.Since
			out[n.Key] = unreadMessage(n, v)
		}
	}
	return out
}

// unreadInput is input.flink.unread of version v: unreadCatalogue as an
// object, built once per version (it is the same for every set read as v,
// and OPA values are not changed once built) and shared by every set.
func unreadInput(v Version) ast.Value {
	unreadCache.Lock()
	defer unreadCache.Unlock()
	if o, ok := unreadCache.byVersion[v]; ok {
		return o
	}
	cat := unreadCatalogue(v)
	m := newObject(len(cat))
	for k, msg := range cat {
		m.str(k, msg)
	}
	o := m.object()
	if len(unreadCache.byVersion) < 256 { // a run reads few versions
		unreadCache.byVersion[v] = o
	}
	return o
}

var unreadCache = struct {
	sync.Mutex
	byVersion map[Version]ast.Value
}{byVersion: map[Version]ast.Value{}}

func flattenNames() []name {
	var out []name
	for _, kd := range flinkKeys {
		out = append(out, kd.Names...)
	}
	return out
}

// unreadMessage says why Flink version v does not read spelling n.
func unreadMessage(n name, v Version) string {
	msg := fmt.Sprintf("Flink %s does not read %s", v, n.Key)
	if v.Less(n.Since) {
		return msg + fmt.Sprintf(" (it exists from Flink %s)", n.Since)
	}
	return msg + fmt.Sprintf(" (removed in Flink %s)", n.Until)
}

// keyUse is a Flink key present in the file with what this version makes of it.
type keyUse struct {
	Key     string
	Loc     *Loc
	Problem string // "deprecated", "shadowed", "unread"
	Message string
	Use     string // the key to use instead, if any
}

// flinkEffective resolves every catalogued setting for version v, the
// keys of overlay (FLINK_PROPERTIES, applied over the file) first.
func flinkEffective(f, overlay *parsed.File, v Version) (map[string]*Value, []keyUse) {
	out := map[string]*Value{}
	var uses []keyUse
	lookup := func(k string) *parsed.Entry {
		if overlay != nil {
			if e := overlay.Lookup(k); e != nil {
				return e
			}
		}
		if f != nil {
			return f.Lookup(k)
		}
		return nil
	}
	for _, kd := range flinkKeys {
		val := &Value{Source: "unset"}
		names := kd.names(v)
		current := ""
		for _, n := range names {
			if readsName(n, v) {
				current = n.Key
				break
			}
		}
		var won *parsed.Entry
		var wonName name
		for _, n := range names {
			e := lookup(n.Key)
			if e == nil {
				continue
			}
			if !readsName(n, v) {
				if !readByCatalogue(n.Key, v) {
					uses = append(uses, keyUse{Key: n.Key, Loc: entryLoc(e), Problem: "unread", Message: unreadMessage(n, v), Use: current})
				}
				continue
			}
			if won != nil {
				uses = append(uses, keyUse{Key: n.Key, Loc: entryLoc(e), Problem: "shadowed",
					Message: fmt.Sprintf("%s is ignored: %s is also set and takes precedence", n.Key, wonName.Key), Use: wonName.Key})
				continue
			}
			won, wonName = e, n
			if !n.DeprecatedFrom.IsZero() && v.AtLeast(n.DeprecatedFrom) && current != "" && current != n.Key {
				uses = append(uses, keyUse{Key: n.Key, Loc: entryLoc(e), Problem: "deprecated",
					Message: fmt.Sprintf("%s is deprecated on Flink %s; use %s", n.Key, v, current), Use: current})
			}
		}
		if won != nil {
			val.Raw, val.Key, val.Source, val.File, val.Loc = won.Value, wonName.Key, "file", won.File, entryLoc(won)
			val.Deprecated = !wonName.DeprecatedFrom.IsZero() && v.AtLeast(wonName.DeprecatedFrom)
			x, err := parseFlink(kd.Type, won, kd.Enum, v)
			if len(won.Placeholders) > 0 {
				// An unrendered template placeholder (docs/templates.md): the
				// value is unknown, not wrong; rules see the template flag and
				// the default when the text does not parse.
				val.Template = true
				val.Value = x
				if err != nil && kd.Default != nil {
					val.Value = kd.Default(v)
				}
			} else if le := (*lenientError)(nil); errors.As(err, &le) {
				// Before 1.10 Flink reads the text leniently and goes on
				// with what it made of it (lenientError).
				val.Error, val.Lenient = le.msg, true
				val.Value = le.value
				if le.value == nil && kd.Default != nil {
					val.Value = kd.Default(v)
				}
			} else if err != nil {
				val.Error = err.Error()
				if kd.Default != nil {
					val.Value = kd.Default(v)
				}
			} else {
				val.Value = x
			}
		} else if kd.Default != nil {
			if d := kd.Default(v); d != nil {
				val.Value, val.Source = d, "default"
			}
		}
		val.Display = display(kd.Type, val.Value)
		if val.Key == "" {
			val.Key = current
		}
		out[kd.Field] = val
	}
	if f != nil {
		for _, e := range f.Entries {
			if to, ok := renamedTo[e.Key]; ok {
				for _, n := range renamedKeys {
					if n.Key == e.Key && !n.DeprecatedFrom.IsZero() && v.AtLeast(n.DeprecatedFrom) {
						uses = append(uses, keyUse{Key: e.Key, Loc: entryLoc(&e), Problem: "deprecated",
							Message: fmt.Sprintf("%s is deprecated on Flink %s; use %s", e.Key, v, to), Use: to})
					}
				}
			}
			for _, n := range renamedKeys {
				if n.Key == e.Key && !readsName(n, v) && !readByCatalogue(e.Key, v) {
					use := renamedTo[e.Key]
					if v.Less(n.Since) {
						use = "" // a release before the key: there is no older name to use
					}
					uses = append(uses, keyUse{Key: e.Key, Loc: entryLoc(&e), Problem: "unread",
						Message: unreadMessage(n, v), Use: use})
				}
			}
		}
	}
	sort.SliceStable(uses, func(i, j int) bool { return uses[i].Loc.Span.Start.Offset < uses[j].Loc.Span.Start.Offset })
	return out, dedupeUses(uses)
}

func dedupeUses(in []keyUse) []keyUse {
	seen := map[string]bool{}
	var out []keyUse
	for _, u := range in {
		k := u.Key + "\x00" + u.Problem + "\x00" + u.Loc.File
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, u)
	}
	return out
}

// LowerBound infers a lower bound for the Flink version from the files:
// config.yaml is read from 1.19 (FLINK-33364; Flink 1.20 GlobalConfiguration.java
// L146-171), and keys that only exist from some version (the Since of their
// flinkKeys entry) raise the bound.
func LowerBound(f *parsed.File) (Version, string) {
	if f == nil {
		return Version{}, ""
	}
	best, why := Version{}, ""
	if f.Format == parsed.FlinkConfigYAML {
		best, why = v1_19, "config.yaml is read from Flink 1.19"
	}
	for _, kd := range flinkKeys {
		for _, n := range kd.Names {
			if n.Since.AtLeast(v1_13) && f.Lookup(n.Key) != nil && best.Less(n.Since) {
				best, why = n.Since, fmt.Sprintf("%s exists from Flink %s", n.Key, n.Since)
			}
		}
	}
	return best, why
}

// hadoopPassthrough returns the flink.hadoop.* entries with the prefix
// stripped and deprecated Hadoop names mapped to their new ones (Flink
// 1.20 HadoopUtils.java L120-136, FLINK-16005: since 1.13 they are set() on
// the Hadoop configuration, whose overlay applies after every resource,
// <final> ones included; Hadoop 3.4.1 Configuration.getProps).
func hadoopPassthrough(f *parsed.File) map[string]*parsed.Entry {
	out := map[string]*parsed.Entry{}
	if f == nil {
		return out
	}
	for i := range f.Entries {
		e := &f.Entries[i]
		if k, ok := strings.CutPrefix(e.Key, "flink.hadoop."); ok && k != "" {
			// Configuration.set() of a deprecated key sets its new name.
			if nk, dep := hadoopxml.Deprecated(k); dep {
				k = nk
			}
			out[k] = e
		}
	}
	return out
}
