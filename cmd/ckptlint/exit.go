package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ckptlint/ckptlint/internal/safetext"
	"github.com/ckptlint/ckptlint/lint"
)

// Exit codes, documented once here and in the README.
const (
	exitClean    = 0 // no finding at or above --fail-level
	exitFindings = 1 // findings at or above --fail-level (or `fix --diff` would change files)
	exitUsage    = 2 // bad flags, bad .ckptlint.hcl, unreadable input, broken user policy
	exitInternal = 3 // a bug in ckptlint
)

// exitError carries an exit code through cobra.
type exitError struct {
	code int
	err  error // nil: nothing more to print
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageErr wraps err as a usage/config/input error (exit 2).
func usageErr(err error) error { return &exitError{code: exitUsage, err: err} }

// codeOf prints err (unless already printed) and returns the exit code.
func codeOf(err error, stderr io.Writer) int {
	if err == nil {
		return exitClean
	}
	var pe *lint.PanicError
	if errors.As(err, &pe) {
		internalError(stderr, pe.Value, pe.Stack)
		return exitInternal
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(stderr, "ckptlint: %s\n", shownLines(ee.err.Error()))
		}
		return ee.code
	}
	// Errors cobra itself returns are flag and argument mistakes.
	fmt.Fprintf(stderr, "ckptlint: %s\n", shownLines(err.Error()))
	return exitUsage
}

// shownLines is an error message as standard error shows it: each of its
// lines (a policy compile error has several) with visible escapes
// (safetext.Text), so that what it quotes cannot start a line of its own.
func shownLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = safetext.Text(l)
	}
	return strings.Join(lines, "\n")
}

// internalError prints a panic ckptlint recovered (in main or in one of its
// goroutines) as one line and a hint to report it. The stack goes to
// standard error only with CKPTLINT_DEBUG=1: CI logs are public, and a
// goroutine dump is noise to the user and no help to anyone without it.
func internalError(stderr io.Writer, v any, stack []byte) {
	fmt.Fprintf(stderr, "ckptlint: internal error: %s\n", safetext.Text(fmt.Sprint(v)))
	if os.Getenv("CKPTLINT_DEBUG") == "1" && len(stack) > 0 {
		fmt.Fprintf(stderr, "%s", stack)
	}
	fmt.Fprintln(stderr, "ckptlint: this is a bug in ckptlint; please report it at https://github.com/ckptlint/ckptlint/issues with the command and, if you can, the input (CKPTLINT_DEBUG=1 adds a stack trace)")
}
