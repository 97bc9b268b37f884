package parsed

import (
	"errors"
	"fmt"
	"maps"
	"slices"
)

// Editor lowers semantic fix operations on one configuration file to byte
// edits of that file's original source. Keys are the effective keys the
// consuming system reads (flattened for nested YAML, the current name of a
// deprecated Hadoop key). Every method computes its edits against the
// source the editor was built from and leaves that source unchanged; a
// method that returns an error returns no edits.
type Editor interface {
	// Set makes key hold value as the consuming system reads it: the
	// winning definition is changed in place, or a new one is added.
	// It returns no edits when key already holds value.
	Set(key, value string) ([]Edit, error)
	// Delete removes every definition of key from the file. It returns an
	// error wrapping ErrNotFound when the file does not set key.
	Delete(key string) ([]Edit, error)
	// Rename renames every definition of key to newKey, keeping its value.
	// It returns an error wrapping ErrNotFound when the file does not set
	// key and ErrExists when it already sets newKey.
	Rename(key, newKey string) ([]Edit, error)
}

// Sentinel errors of Editor methods; match them with errors.Is.
var (
	// ErrCannotRepresent: the file or its format cannot hold the change
	// (a value the format has no syntax for, a key defined in a file
	// this one includes, a layout the editor cannot splice safely).
	ErrCannotRepresent = errors.New("cannot be represented")
	// ErrNotFound: delete or rename of a key the file does not set.
	ErrNotFound = errors.New("key not set in the file")
	// ErrExists: rename onto a key the file already sets. Renaming would
	// change which value wins, so the editor refuses; delete one of them
	// first.
	ErrExists = errors.New("key already set in the file")
)

// DiffViews describes the first difference, in key order, between the
// key → value view an edit should produce (want) and the view its result
// parses to (got), or returns "" when they agree. Editors use it to check
// their own edits; show renders a value for the message.
func DiffViews[V comparable](want, got map[string]V, show func(V) string) string {
	keys := slices.Sorted(maps.Keys(want))
	for k := range got {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		w, inWant := want[k]
		g, inGot := got[k]
		switch {
		case !inGot:
			return fmt.Sprintf("%q would be missing", k)
		case !inWant:
			return fmt.Sprintf("%q would be set to %s", k, show(g))
		case g != w:
			return fmt.Sprintf("%q would be %s, not %s", k, show(g), show(w))
		}
	}
	return ""
}
