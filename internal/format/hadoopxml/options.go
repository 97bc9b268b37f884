package hadoopxml

import "errors"

// ErrNotFollowed is what a ReadFile callback wraps to refuse a target it
// must not read (outside the repository, not a regular file): the include
// is reported as a notice (xml-include-not-followed) carrying the error's
// text, Hadoop's <xi:fallback> is not armed, and the file still parses.
var ErrNotFollowed = errors.New("not followed")

// Options tune what Parse may look at outside the file itself. The zero value
// reads nothing else: includes are reported as not followed and every
// environment variable is unset.
type Options struct {
	// ReadFile reads an xi:include target; the path is already resolved
	// (slash-separated, relative hrefs joined to the directory of the file
	// given to Parse). A returned error that matches fs.ErrNotExist means the
	// target is missing, so <xi:fallback> applies; any other error is a parse
	// error, unless it wraps ErrNotFollowed. nil: includes are not followed
	// (notice xml-include-not-followed).
	ReadFile func(path string) ([]byte, error)
	// Getenv resolves ${env.NAME}. nil means the environment of the
	// process that reads the file is unknown, as it is to ckptlint: such a
	// reference is kept as written (Unknowns says what it stands for).
	Getenv func(name string) (string, bool)
	// IgnoreCDATA reads the file as the Hadoop releases whose StAX parser
	// drops CDATA sections (see CDATAIgnored); the zero value reads CDATA
	// text as every other release does.
	IgnoreCDATA bool
}
