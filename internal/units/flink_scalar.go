package units

import (
	"fmt"
	"strings"
)

// ParseFlinkBool reads s as ConfigurationUtils.convertToBoolean does
// (F1.20 ConfigurationUtils.java:L590-606): only "true" or "false" in any
// case. The text is not trimmed, and YAML words such as "yes" or "on" are
// refused.
func ParseFlinkBool(s string) (bool, error) {
	switch strings.ToUpper(s) {
	case "TRUE":
		return true, nil
	case "FALSE":
		return false, nil
	}
	return false, errorf(s, fmt.Sprintf("Unrecognized option for boolean: %s. Expected either true or false(case insensitive)", s))
}

// ParseFlinkInt reads s as ConfigurationUtils.convertToInt does for a string
// value (F1.20 ConfigurationUtils.java:L562-577): Integer.parseInt(s), which
// takes an optional sign and decimal digits, and no surrounding space, no
// unit and no fraction.
func ParseFlinkInt(s string) (int, error) {
	v, st := javaParseInt(s, 10, 32)
	switch st {
	case numSyntax:
		return 0, errorf(s, numberFormat(s, 10)+intHint(s))
	case numRange:
		return 0, errorf(s, numberFormat(s, 10)+"; the value is outside the range of a Java int")
	}
	return int(v), nil
}

// intHint adds advice to a refused integer.
func intHint(s string) string {
	switch {
	case javaTrim(s) != s && javaTrim(s) != "":
		if _, st := javaParseInt(javaTrim(s), 10, 32); st == numOK {
			return "; remove the surrounding spaces"
		}
	case strings.ContainsAny(s, ".,"):
		return "; the value must be a whole number"
	}
	return ""
}
