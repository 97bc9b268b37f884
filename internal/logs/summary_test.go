package logs

import (
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
