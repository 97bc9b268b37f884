package facts

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/ckptlint/ckptlint/internal/logs"
)

// Log is the kind of the facts a Flink or Hadoop log proves (ckptlint
// facts --from-log, explain --log).
const Log Kind = "log"

// NamedLog is one log's summary and the name it is shown by.
type NamedLog struct {
	Name    string
	Summary *logs.Summary
}

// FromLogs turns what logs prove into cluster values: the block replicas of
// a DataNode (the DirectoryScanner's per-pool totals added up, each log
// taken to be one DataNode's), the longest write stall (a dataset lock held,
// a slow disk write or pipeline acknowledgement), the least free space of a
// DataNode the NameNode rejected and the DataNodes running when a block
// could not be placed: over several logs, the worst of them, as the JMX
// source takes the worst DataNode. Nil when the logs prove nothing.
func FromLogs(ls []NamedLog) *Observation {
	type best struct {
		f   *logs.Fact
		log string
	}
	worst := map[string]best{}
	for _, l := range ls {
		for _, f := range l.Summary.Facts() {
			b, ok := worst[f.Attr]
			if !ok || (f.Attr == "datanode_free_bytes" && f.Value < b.f.Value) || (f.Attr != "datanode_free_bytes" && f.Value > b.f.Value) {
				worst[f.Attr] = best{f, l.Name}
			}
		}
	}
	o := &Observation{Kind: Log}
	for _, l := range ls {
		o.Sources = append(o.Sources, l.Name)
	}
	for _, attr := range logs.FactAttrs {
		b, ok := worst[attr]
		if !ok {
			continue
		}
		note := fmt.Sprintf("%s:%d: %s", b.log, b.f.Match.Line, b.f.What)
		switch {
		case attr == "datanode_blocks" && b.f.Keys > 1:
			note += fmt.Sprintf(" (the totals of %d block pools added up)", b.f.Keys)
		case attr == "datanode_free_bytes":
			note += ", " + HumanBytes(b.f.Value)
		}
		if b.f.Match.Via != "" {
			note += "; " + b.f.Match.Via
		}
		if len(ls) > 1 {
			note += fmt.Sprintf("; the worst of %d logs", len(ls))
		}
		v := Value{Attr: attr, Val: cty.NumberIntVal(b.f.Value), Note: note}
		if attr == "write_stall" {
			v.Val = cty.StringVal(Millis(b.f.Value))
		}
		o.Cluster = append(o.Cluster, v)
	}
	if len(o.Cluster) == 0 {
		return nil
	}
	return o
}
