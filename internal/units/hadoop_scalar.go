package units

// ParseHadoopLong reads s as Hadoop's Configuration.getLong does
// (H3.4.1 Configuration.java:L1546-1655): trimmed; "0x"/"0X", optionally after
// a '-', introduces hexadecimal ("-0x10" is -16); otherwise a decimal Java
// long, where a leading zero is not octal ("020" is 20). No size or time
// suffix is accepted.
func ParseHadoopLong(s string) (int64, error) { return parseHadoopInt(s, 64) }

// ParseHadoopInt reads s as Configuration.getInt does: as ParseHadoopLong,
// within the range of a Java int.
func ParseHadoopInt(s string) (int32, error) {
	v, err := parseHadoopInt(s, 32)
	return int32(v), err //nolint:gosec // G115: parseHadoopInt(s, 32) keeps v within int32
}

func parseHadoopInt(s string, bits int) (int64, error) {
	t := javaTrim(s)
	text, radix := t, int64(10)
	if hex, ok := hadoopHexDigits(t); ok {
		text, radix = hex, 16
	}
	v, st := javaParseInt(text, radix, bits)
	switch st {
	case numOK:
		return v, nil
	case numRange:
		javaType := "long"
		if bits == 32 {
			javaType = "int"
		}
		return 0, errorf(s, numberFormat(text, radix)+"; the value is outside the range of a Java "+javaType)
	}
	reason := numberFormat(text, radix)
	if radix == 10 {
		if _, err := ParseHadoopBytes(t); err == nil && t != "" {
			reason += "; this key is read with getLong/getInt, which takes no size suffix"
		} else if _, err := ParseHadoopDuration(t, 1); err == nil && t != "" {
			reason += "; this key is read with getLong/getInt, which takes no time suffix"
		} else {
			reason += hadoopNumberHint(t, st)
		}
	}
	return 0, errorf(s, reason)
}

// hadoopHexDigits mirrors Configuration.getHexDigits: the text after "0x" or
// "0X", with the '-' put back when the value started with "-0x".
func hadoopHexDigits(t string) (string, bool) {
	neg, str := false, t
	if len(str) > 0 && str[0] == '-' {
		neg, str = true, str[1:]
	}
	if len(str) < 2 || str[0] != '0' || (str[1] != 'x' && str[1] != 'X') {
		return "", false
	}
	if neg {
		return "-" + str[2:], true
	}
	return str[2:], true
}

// ParseHadoopBool reads s as Configuration.getBoolean does
// (H3.4.1 Configuration.java:L1727-1744): trimmed, "true" or "false" in any
// case. ok is false when Hadoop falls back to the caller's default instead:
// for an empty value silently, for anything else ("yes", "1") with the WARN
// "Invalid value for boolean".
func ParseHadoopBool(s string) (v bool, ok bool) {
	t := javaTrim(s)
	switch {
	case t == "":
		return false, false
	case javaEqualFold(t, "true"):
		return true, true
	case javaEqualFold(t, "false"):
		return false, true
	}
	return false, false
}
