package units

// Error is a value that Flink or Hadoop would refuse. Reason quotes the
// upstream exception message where one exists, followed by advice for common
// mistakes ("us" for microseconds in Flink, "1 m" in Hadoop).
type Error struct {
	Input  string // the value as given to the parser
	Reason string // why the value is refused
}

// Error returns the reason; the caller adds the key and position.
func (e *Error) Error() string { return e.Reason }

func errorf(input, reason string) *Error { return &Error{Input: input, Reason: reason} }
