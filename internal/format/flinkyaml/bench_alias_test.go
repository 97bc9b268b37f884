package flinkyaml

import "testing"

// BenchmarkRefuseAliasBomb measures refusing aliases that would expand to
// 2^15 keys (maxAliasEntries stops the expansion at 10,000).
func BenchmarkRefuseAliasBomb(b *testing.B) {
	src := []byte(aliasBomb())
	b.ReportAllocs()
	for b.Loop() {
		if f := ParseConfig("config.yaml", src); f.Err == nil {
			b.Fatal("bomb accepted")
		}
	}
}
