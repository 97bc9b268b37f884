package safetext

import "unicode"

// GitHub's runner reads a workflow command after message.TrimStart(), which
// strips every Unicode white space character (.NET Char.IsWhiteSpace, the
// set of Go's unicode.IsSpace), and with message.StartsWith("::") and
// message.IndexOf("##["), which compare in the current culture: with ICU
// (.NET 5 and later on Linux, unless globalization is invariant) they skip
// ignorable code points, so ":\u00ad:" starts with "::" and "#\u200b#["
// holds "##[" (actions/runner src/Runner.Common/ActionCommand.cs,
// TryParseV2 and TryParse). Whether a hosted runner runs invariant is not
// known, so the writers and Inert read through both.

// ignorables is Default_Ignorable_Code_Point (Unicode
// DerivedCoreProperties.txt, Default_Ignorable_Code_Point), which package
// unicode has no table for. TestIgnorables derives it again from the
// tables package unicode has.
var ignorables = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x00ad, Hi: 0x00ad, Stride: 1},
		{Lo: 0x034f, Hi: 0x034f, Stride: 1},
		{Lo: 0x061c, Hi: 0x061c, Stride: 1},
		{Lo: 0x115f, Hi: 0x1160, Stride: 1},
		{Lo: 0x17b4, Hi: 0x17b5, Stride: 1},
		{Lo: 0x180b, Hi: 0x180f, Stride: 1},
		{Lo: 0x200b, Hi: 0x200f, Stride: 1},
		{Lo: 0x202a, Hi: 0x202e, Stride: 1},
		{Lo: 0x2060, Hi: 0x206f, Stride: 1},
		{Lo: 0x3164, Hi: 0x3164, Stride: 1},
		{Lo: 0xfe00, Hi: 0xfe0f, Stride: 1},
		{Lo: 0xfeff, Hi: 0xfeff, Stride: 1},
		{Lo: 0xffa0, Hi: 0xffa0, Stride: 1},
		{Lo: 0xfff0, Hi: 0xfff8, Stride: 1},
	},
	R32: []unicode.Range32{
		{Lo: 0x1bca0, Hi: 0x1bca3, Stride: 1},
		{Lo: 0x1d173, Hi: 0x1d17a, Stride: 1},
		{Lo: 0xe0000, Hi: 0xe0fff, Stride: 1},
	},
}

// ignorable reports whether r is a default ignorable code point, which a
// culture-sensitive comparison skips: transparent wherever a runner looks
// for "::", "##[" or "##vso[".
func ignorable(r rune) bool { return r >= 0xad && unicode.Is(ignorables, r) }

// blank reports whether r, on a line before "::", leaves the line's start
// as it is for the runner: white space (TrimStart) other than the newline
// that ends the line, or an ignorable code point.
func blank(r rune) bool { return r != '\n' && unicode.IsSpace(r) || ignorable(r) }

// mayBeBlank is a quick test for a rune from 0x80 that is false only when
// blank(r) is: one or two comparisons for the letters and symbols of most
// reports (TestMayBeBlank).
func mayBeBlank(r rune) bool {
	switch {
	case r < 0x1680:
		return r == 0x85 || r == 0xa0 || r == 0xad || r == 0x34f || r == 0x61c || r == 0x115f || r == 0x1160
	case r < 0x2000:
		return r == 0x1680 || r >= 0x17b4 && r <= 0x180f
	case r < 0x2070:
		return r <= 0x200f || r >= 0x2028 && r <= 0x202f || r >= 0x205f
	}
	return r == 0x3000 || r == 0x3164 || r >= 0xfe00 && r <= 0xfe0f || r == 0xfeff || r >= 0xffa0 && r <= 0xfff8 ||
		r >= 0x1bca0
}
