package logs

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
)

// DefaultMaxDecompressed is how much a gzip-compressed log may decompress
// to before reading stops (TooLargeError): a rotated Hadoop or Flink log is
// some hundreds of MiB (log4j's RollingFileAppender, Hadoop's
// hadoop.log.maxfilesize 256MB), a daily one a few GiB; a gzip bomb of a
// few MiB would otherwise decompress without end.
const DefaultMaxDecompressed int64 = 4 << 30

// TooLargeError is the error of a gzip stream that decompresses to more
// than its bound; what was read before it still counts.
type TooLargeError struct{ Limit int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("more than %d MiB of decompressed data, the bound on a gzip-compressed log", e.Limit>>20)
}

// gzipMagic starts every gzip member (RFC 1952, ID1 ID2).
var gzipMagic = []byte{0x1f, 0x8b}

// Reader returns r decompressed when it is gzip data (told by its first two
// bytes, whatever its name; concatenated members, as logrotate and
// `cat a.gz b.gz` leave them, are read as one stream) and r as it is
// otherwise. The decompressed stream is read as it is scanned, never held,
// and yields at most max bytes, then a *TooLargeError. gz reports which.
func Reader(r io.Reader, max int64) (out io.Reader, gz bool, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(2)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, false, err
	}
	if len(head) < 2 || head[0] != gzipMagic[0] || head[1] != gzipMagic[1] {
		return br, false, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, true, fmt.Errorf("gzip: %w", err)
	}
	return &bounded{r: zr, left: max, limit: max}, true, nil
}

// bounded reads at most limit bytes of r, then fails with *TooLargeError
// (when r has more).
type bounded struct {
	r           io.Reader
	left, limit int64
}

func (b *bounded) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte more tells a stream of exactly the limit from a longer one.
		var one [1]byte
		if n, err := b.r.Read(one[:]); n == 0 && err != nil {
			return 0, err
		}
		return 0, &TooLargeError{Limit: b.limit}
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}
