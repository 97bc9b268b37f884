package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestFlagHelpOneLine checks every flag of every command: its --help entry
// is one line, and a flag whose zero value is not its default says so
// (cobra appends "(default X)" to the others).
func TestFlagHelpOneLine(t *testing.T) {
	root := newRoot(&globals{})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if strings.Contains(f.Usage, "\n") {
				t.Errorf("%s --%s: usage spans lines: %q", c.CommandPath(), f.Name, f.Usage)
			}
			if f.Usage == "" {
				t.Errorf("%s --%s: no usage", c.CommandPath(), f.Name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

func TestUseColor(t *testing.T) {
	for _, tc := range []struct {
		flag string
		tty  bool
		env  map[string]string
		want bool
	}{
		{"auto", true, nil, true},
		{"auto", false, nil, false},
		{"auto", true, map[string]string{"NO_COLOR": "1"}, false},
		{"auto", true, map[string]string{"NO_COLOR": ""}, true}, // set but empty: no effect (no-color.org)
		{"auto", false, map[string]string{"FORCE_COLOR": "1"}, true},
		{"auto", false, map[string]string{"FORCE_COLOR": "0"}, false},
		{"auto", false, map[string]string{"FORCE_COLOR": "false"}, false},
		{"auto", false, map[string]string{"CLICOLOR_FORCE": "1"}, true},
		{"auto", false, map[string]string{"CLICOLOR_FORCE": "1", "NO_COLOR": "1"}, false},
		{"always", false, map[string]string{"NO_COLOR": "1"}, true},
		{"never", true, map[string]string{"FORCE_COLOR": "1"}, false},
	} {
		got, err := useColor(tc.flag, tc.tty, func(k string) string { return tc.env[k] })
		if err != nil || got != tc.want {
			t.Errorf("useColor(%s, tty %v, %v) = %v, %v; want %v", tc.flag, tc.tty, tc.env, got, err, tc.want)
		}
	}
	if _, err := useColor("sometimes", true, func(string) string { return "" }); err == nil {
		t.Error("useColor(sometimes) accepted")
	}
}
