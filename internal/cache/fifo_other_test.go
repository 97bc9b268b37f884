//go:build !unix

package cache

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs on this system") }
