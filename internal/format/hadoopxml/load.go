package hadoopxml

import (
	"fmt"
	"strings"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// load replays the parsed items through Hadoop's loadProperty and fills
// File.Entries so that parsed.File.Lookup returns what Hadoop holds:
//
//   - a definition without a value (empty or missing <value>) sets nothing
//     and is not an entry, unless it is the first final one of its key: then
//     it becomes a final entry that keeps the value held so far, or a
//     KindNull entry when there is none (Hadoop: the key is null and every
//     later definition is ignored; Hadoop 3.4.1 TestConfiguration.testFinalParam);
//   - once a key is final, later definitions are kept as entries after the
//     final one (Lookup skips them) and noted as xml-final-override when
//     they would have changed the value (xml-final-empty-override, without
//     Hadoop's warning, when the final one has no value);
//   - otherwise the last definition wins and each replaced one is noted as
//     xml-duplicate-key.
func (p *parser) load() {
	f := p.doc.File
	held := map[string]int{}       // key -> entry holding Hadoop's current value
	firstFinal := map[string]int{} // key -> first final entry
	for _, it := range p.items {
		var idx int
		ff, isFinal := firstFinal[it.key]
		switch {
		case it.value == nil:
			idx = p.loadEmpty(it, isFinal, held)
			if idx >= 0 {
				firstFinal[it.key], held[it.key] = idx, idx
			}
		case isFinal:
			idx = p.add(it, *it.value)
			// Hadoop 3.4.1 Configuration.checkForOverride (L3574-3580): WARN
			// only when the key holds a value ("propertyValue != null") that
			// differs from this one.
			switch won := f.Entries[ff]; {
			case won.Kind == parsed.KindNull:
				where := fmt.Sprintf("on line %d", won.KeySpan.Start.Line)
				if won.File != it.file {
					where = fmt.Sprintf("at %s:%d", won.File, won.KeySpan.Start.Line)
				}
				p.notice(it.file, NoticeFinalEmptyOverride, it.keySpanOr(), it.key,
					"%q is final with no value %s, so Hadoop ignores this definition without a warning and %q keeps no value", it.key, where, it.key)
			case won.Value != *it.value:
				p.notice(it.file, NoticeFinalOverride, it.keySpanOr(), it.key,
					"%s:an attempt to override final parameter: %s;  Ignoring.", p.top, it.key)
			}
		default:
			if prev, ok := held[it.key]; ok {
				pe := f.Entries[prev]
				where := fmt.Sprintf("on line %d", it.keySpanOr().Start.Line)
				if it.file != pe.File {
					where = fmt.Sprintf("at %s:%d", it.file, it.keySpanOr().Start.Line)
				}
				same := ""
				if pe.Kind != parsed.KindNull && pe.Value == *it.value {
					// Both definitions hold the same text: which one wins
					// changes nothing (Configuration keeps the later one).
					same = " (" + SameValueMarker + ")"
				}
				p.notice(pe.File, NoticeDuplicateKey, pe.KeySpan, it.key,
					"%q is set again %s; Hadoop uses the later value %q%s", it.key, where, *it.value, same)
			}
			idx = p.add(it, *it.value)
			held[it.key] = idx
			if it.final {
				firstFinal[it.key] = idx
			}
		}
		if it.prop >= 0 {
			p.doc.Properties[it.prop].Index = idx
		}
	}
}

// loadEmpty handles a definition without a value and returns the index of
// the entry it adds, or -1.
func (p *parser) loadEmpty(it *item, alreadyFinal bool, held map[string]int) int {
	f := p.doc.File
	prev, hasPrev := held[it.key]
	switch {
	case alreadyFinal || !it.final:
		msg := "%q has no value here (empty or missing <value>); Hadoop ignores this definition"
		if hasPrev {
			msg += fmt.Sprintf(" and keeps %q", f.Entries[prev].Value)
		}
		p.notice(it.file, NoticeEmptyValue, it.valueSpanOr(), it.key, msg, it.key)
		return -1
	case hasPrev:
		pe := f.Entries[prev]
		p.notice(it.file, NoticeEmptyValue, it.valueSpanOr(), it.key,
			"%q is final with no value here; Hadoop keeps the earlier value %q and makes it final", it.key, pe.Value)
		idx := p.add(it, pe.Value)
		f.Entries[idx].Raw, f.Entries[idx].Kind = pe.Raw, pe.Kind
		return idx
	default:
		p.notice(it.file, NoticeEmptyValue, it.valueSpanOr(), it.key,
			"%q is final with no value; Hadoop leaves it unset and ignores every later definition", it.key)
		idx := p.add(it, "")
		f.Entries[idx].Kind = parsed.KindNull
		return idx
	}
}

func (p *parser) add(it *item, value string) int {
	f := p.doc.File
	f.Entries = append(f.Entries, parsed.Entry{
		Key: it.key, Value: value, Kind: parsed.KindString, File: it.file,
		WrittenKey: it.written, KeySpan: it.keySpan, ValueSpan: it.valueSpan,
		Final: it.final, Sources: it.sources, Unknown: it.unknown,
	})
	return len(f.Entries) - 1
}

// substitute expands ${var} in every entry against the file's own effective
// raw values (Hadoop expands at get() time against the whole merged
// configuration; the model repeats this across files with Substitute).
func (p *parser) substitute() {
	f := p.doc.File
	raw := map[string]string{}
	for k, e := range f.Effective() {
		if e.Kind != parsed.KindNull {
			raw[k] = e.Value
		}
	}
	lookup := func(k string) (string, bool) {
		v, ok := raw[k]
		return v, ok
	}
	for i := range f.Entries {
		e := &f.Entries[i]
		if e.Kind == parsed.KindNull || !strings.Contains(e.Value, "${") {
			continue
		}
		v, err := expand(e.Value, lookup, p.opts.Getenv)
		if err != nil {
			p.notice(e.File, NoticeSubstitutionDepth, e.ValueSpan, e.Key, "%s", err.Error())
			continue
		}
		if v != e.Value {
			e.Raw, e.Value = e.Value, v
		}
	}
}
