package logs

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strings"
	"testing"
)

const expired = "2026-12-01 10:00:00 WARN CheckpointCoordinator - Checkpoint 7 of job abc expired before completing.\n"

// TestSummarizeLongLines: a line over MaxLine does not stop the scan
// (issue 25: a line over 1 MiB aborted explain --log); it is matched on
// its start and counted, and the lines after it are read.
func TestSummarizeLongLines(t *testing.T) {
	log := "noise\n" +
		strings.Repeat("x", 3*MaxLine) + "\n" + // past MaxLine: skipped after its start
		"Exceeded checkpoint tolerable failure threshold " + strings.Repeat("y", MaxLine) + "\n" + // matched on its start
		expired + "tail without a newline: " + strings.TrimSuffix(expired, "\n")
	s, err := Summarize(strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	if s.Lines != 5 || s.Clipped != 2 || s.FirstClipped != 2 {
		t.Errorf("lines %d, clipped %d, first clipped %d; want 5, 2, 2", s.Lines, s.Clipped, s.FirstClipped)
	}
	if len(s.First) != 2 || s.First[0].Pattern.ID != "flink-tolerable-exceeded" || s.First[0].Line != 3 ||
		s.First[1].Pattern.ID != "flink-checkpoint-expired" || s.First[1].Line != 4 {
		t.Fatalf("first matches %+v", s.First)
	}
	if s.Count["flink-checkpoint-expired"] != 2 || len(s.First[0].Text) > maxText {
		t.Errorf("counts %v, kept text %d bytes", s.Count, len(s.First[0].Text))
	}
}

// gzipped compresses data, in members of the given sizes (one when none).
func gzipped(t *testing.T, data string, members ...int) []byte {
	t.Helper()
	var out bytes.Buffer
	if len(members) == 0 {
		members = []int{len(data)}
	}
	for _, n := range members {
		zw := gzip.NewWriter(&out)
		if _, err := zw.Write([]byte(data[:n])); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		data = data[n:]
	}
	return out.Bytes()
}

// TestGzipLog: a .gz log (one member or several, as logrotate leaves
// concatenated ones) is read as the plain log is, lines, long lines and
// facts alike; plain text passes through.
func TestGzipLog(t *testing.T) {
	log := "noise\n" + strings.Repeat("x", 2*MaxLine) + "\n" + expired +
		"2026-12-01 10:00:02 INFO DirectoryScanner: BlockPool BP-1 Total blocks: 7, missing metadata files:0, missing block files:0, missing blocks in memory:0, mismatched blocks:0\n"
	for name, data := range map[string][]byte{
		"plain": []byte(log), "gzip": gzipped(t, log), "two members": gzipped(t, log, len(log)/2, len(log)-len(log)/2),
	} {
		t.Run(name, func(t *testing.T) {
			r, gz, err := Reader(bytes.NewReader(data), DefaultMaxDecompressed)
			if err != nil {
				t.Fatal(err)
			}
			if gz != (name != "plain") {
				t.Errorf("gzip detected: %v", gz)
			}
			s, err := Summarize(r)
			if err != nil {
				t.Fatal(err)
			}
			if s.Lines != 4 || s.Clipped != 1 || len(s.First) != 2 || s.First[0].Line != 3 || s.Facts()[0].Value != 7 {
				t.Errorf("lines %d, clipped %d, first %v", s.Lines, s.Clipped, s.First)
			}
		})
	}
}

// TestGzipBomb: a gzip stream that decompresses past the bound stops there
// with a TooLargeError, having read only about the bound (a few KiB of
// input standing for 64 MiB of zeros), and what came before still counts.
func TestGzipBomb(t *testing.T) {
	var bomb bytes.Buffer
	zw, err := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write([]byte(expired)); err != nil {
		t.Fatal(err)
	}
	zeros := make([]byte, 1<<20)
	for range 64 {
		if _, err := zw.Write(zeros); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if bomb.Len() > 2<<20 {
		t.Fatalf("the bomb is %d bytes", bomb.Len())
	}
	const limit = 1 << 20
	r, _, err := Reader(&bomb, limit)
	if err != nil {
		t.Fatal(err)
	}
	counted := &countingReader{r: r}
	s, err := Summarize(counted)
	var big *TooLargeError
	if !errors.As(err, &big) || big.Limit != limit {
		t.Fatalf("error %v, want a TooLargeError", err)
	}
	if counted.n > limit {
		t.Errorf("read %d decompressed bytes, bound %d", counted.n, limit)
	}
	if len(s.First) != 1 || s.First[0].Pattern.ID != "flink-checkpoint-expired" {
		t.Errorf("what came before the bound: %v", s.First)
	}
	// Exactly the bound is not too large.
	r, _, _ = Reader(bytes.NewReader(gzipped(t, expired)), int64(len(expired)))
	if _, err := Summarize(r); err != nil {
		t.Errorf("a stream of exactly the bound: %v", err)
	}
}

// TestGzipCorrupt: a damaged or cut gzip stream is an error naming the line
// it was read to, not a silently shorter log.
func TestGzipCorrupt(t *testing.T) {
	data := gzipped(t, strings.Repeat(expired, 1000))
	r, _, err := Reader(bytes.NewReader(data[:len(data)/2]), DefaultMaxDecompressed)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Summarize(r); err == nil || !strings.Contains(err.Error(), "line ") || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("cut stream: %v", err)
	}
	if _, _, err := Reader(bytes.NewReader([]byte{0x1f, 0x8b, 0, 0}), DefaultMaxDecompressed); err == nil || !strings.Contains(err.Error(), "gzip") {
		t.Errorf("bad header: %v", err)
	}
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
