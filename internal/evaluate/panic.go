package evaluate

import "fmt"

// PanicError is a panic recovered in a goroutine ckptlint started: a bug in
// ckptlint (or a library it calls), not a problem with the input. A panic in
// a goroutine other than main cannot be recovered by main's deferred recover
// and would end the process with the Go runtime's exit code 2 and a stack
// dump, so every goroutine recovers and hands the panic back as this error.
// The command prints Value and exits 3; Stack only with CKPTLINT_DEBUG=1.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("internal error: %v", e.Value) }
