package model

import (
	"fmt"
	"slices"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Notice codes for <final> across the Hadoop resources Flink's client loads.
const (
	// NoticeFinalOverrideResource marks a definition in a later resource
	// that Hadoop ignores because an earlier resource made the key final
	// with a value; Hadoop logs "<resource>:an attempt to override final
	// parameter: <key>;  Ignoring." (Configuration.checkForOverride).
	NoticeFinalOverrideResource = "xml-final-override-resource"
	// NoticeFinalEmptyResource marks a definition in a later resource that
	// Hadoop ignores because an earlier resource made the key final with no
	// value; Hadoop logs nothing (checkForOverride only compares non-null
	// values) and get() returns null, so the getter's default applies.
	NoticeFinalEmptyResource = "xml-final-empty-resource"
)

// crossFinalNotices replays Configuration.loadProperty over the client
// resources in Flink's load order and returns, per file, a notice for every
// key a later resource tries to change after an earlier resource made it
// final: finalParameters holds the key from the first final definition on,
// with or without a value (TestConfiguration.testFinalParam,
// testFinalWarnings; deprecated names are already stored under their new
// key, so a final on either name locks both:
// TestConfigurationDeprecation.testDeprecationForFinalParameters). The
// same value again is not an override (testFinalWarnings).
func crossFinalNotices(files []*parsed.File) map[*parsed.File][]parsed.Notice {
	type lock struct {
		e    *parsed.Entry
		held *parsed.Entry // the value Hadoop holds; nil when none
	}
	out := map[*parsed.File][]parsed.Notice{}
	locked := map[string]lock{}
	held := map[string]*parsed.Entry{}
	for _, f := range files {
		if f == nil {
			continue
		}
		eff := f.Effective()
		keys := make([]string, 0, len(eff))
		for k := range eff {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			e := eff[k]
			if lk, ok := locked[k]; ok && lk.e.File != f.Path {
				switch {
				case lk.held == nil:
					out[f] = append(out[f], parsed.Notice{Code: NoticeFinalEmptyResource, File: e.File, Span: e.KeySpan, Key: k,
						Message: fmt.Sprintf("%s is final with no value in %s, loaded earlier; Hadoop ignores this definition without a warning and %s keeps no value (its default applies)",
							k, where(lk.e), k)})
				case e.Kind != parsed.KindNull && rawValue(e) != rawValue(lk.held):
					// checkForOverride compares the raw values (Hadoop 3.4.1
					// L3574-3580), before ${var} substitution
					out[f] = append(out[f], parsed.Notice{Code: NoticeFinalOverrideResource, File: e.File, Span: e.KeySpan, Key: k,
						Message: fmt.Sprintf("%s:an attempt to override final parameter: %s;  Ignoring. (final in %s, which holds %q)",
							f.Path, k, where(lk.e), lk.held.Value)})
				}
				continue
			}
			if e.Kind != parsed.KindNull {
				held[k] = e
			}
			if e.Final {
				locked[k] = lock{e: e, held: held[k]}
			}
		}
	}
	return out
}

func where(e *parsed.Entry) string {
	return fmt.Sprintf("%s:%d", e.File, e.KeySpan.Start.Line)
}

// rawValue is an entry's value as written, before ${var} substitution.
func rawValue(e *parsed.Entry) string {
	if e.Raw != "" {
		return e.Raw
	}
	return e.Value
}
