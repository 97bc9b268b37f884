package hadoopxml

import (
	"strings"
	"testing"
)

// BenchmarkRefuseEntityBomb measures refusing a billion-laughs file (the
// limits of dtd.go stop it after 2,500 expansions).
func BenchmarkRefuseEntityBomb(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("<!DOCTYPE l [<!ENTITY l0 \"lol\">")
	for i := 1; i < 10; i++ {
		sb.WriteString("<!ENTITY l" + string(rune('0'+i)) + " \"" + strings.Repeat("&l"+string(rune('0'+i-1))+";", 10) + "\">")
	}
	sb.WriteString("]><configuration><property><name>a</name><value>&l9;</value></property></configuration>")
	src := []byte(sb.String())
	b.ReportAllocs()
	for b.Loop() {
		if f := Parse("core-site.xml", src, Options{}); f.Err == nil {
			b.Fatal("bomb accepted")
		}
	}
}

// BenchmarkParseUTF16 measures reading a 1,000-property UTF-16 file
// (decoding included), against BenchmarkParseUTF8 on the same text.
func BenchmarkParseUTF16(b *testing.B) { benchParse(b, true) }

func BenchmarkParseUTF8(b *testing.B) { benchParse(b, false) }

func benchParse(b *testing.B, utf16 bool) {
	var sb strings.Builder
	sb.WriteString("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<configuration>\n")
	for i := 0; i < 1000; i++ {
		sb.WriteString(prop("key.número."+strings.Repeat("x", i%7), "välue"))
	}
	sb.WriteString("</configuration>\n")
	text := sb.String()
	src := []byte(strings.Replace(text, "UTF-16", "UTF-8", 1))
	if utf16 {
		var u []byte
		u = append(u, 0xFF, 0xFE)
		for _, c := range utf16Encode(text) {
			u = append(u, byte(c), byte(c>>8))
		}
		src = u
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if f := Parse("core-site.xml", src, Options{}); f.Err != nil {
			b.Fatal(f.Err)
		}
	}
}
