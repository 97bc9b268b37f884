package fix

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/write"
)

// BenchmarkDiffLarge: the diff of a configuration file at the size limit's
// order (200,000 lines), every 7th line changed and the halves swapped:
// the worst case fix --diff can be handed.
func BenchmarkDiffLarge(b *testing.B) {
	var old, new strings.Builder
	for i := range 200000 {
		fmt.Fprintf(&old, "key.%d: value %d\n", i%1000, i)
		if i%7 == 0 {
			fmt.Fprintf(&new, "key.%d: changed %d\n", i%1000, i)
		} else {
			fmt.Fprintf(&new, "key.%d: value %d\n", i%1000, (i+100000)%200000)
		}
	}
	c := write.Change{Old: []byte(old.String()), New: []byte(new.String())}
	b.ResetTimer()
	for b.Loop() {
		_ = Diff(c, "conf/flink-conf.yaml")
	}
}
