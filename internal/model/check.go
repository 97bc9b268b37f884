package model

import (
	"github.com/ckptlint/ckptlint/internal/format/hadoopxml"
	"github.com/ckptlint/ckptlint/internal/parsed"
)

// FlinkValueError is what Flink v makes of e as the value of key: nil when
// it reads the value, else the error its parser raises (the one the
// effective model records in Value.Error: TimeUtils.parseDuration,
// MemorySize.parse, ConfigurationUtils' number, boolean and enum
// converters). known is false when key is not in the catalogue, whose type
// is then unknown; a value holding a template placeholder is not judged.
// `ckptlint fix` checks every value it writes with it (docs/fix.md).
func FlinkValueError(key string, e *parsed.Entry, v Version) (known bool, err error) {
	for _, kd := range flinkKeys {
		for _, n := range kd.Names {
			if n.Key != key {
				continue
			}
			if len(e.Placeholders) > 0 {
				return true, nil
			}
			_, err := parseFlink(kd.Type, e, kd.Enum, v)
			return true, err
		}
	}
	return false, nil
}

// HadoopValueError is what Hadoop's Configuration getter for key makes of
// value (getLongBytes, getLong/getInt, getBoolean, getTimeDuration: Hadoop
// 3.4.1 Configuration.java), under its deprecated name too: nil when it
// reads the value, else the error. known is false when key is not in the
// catalogue.
func HadoopValueError(key, value string) (known bool, err error) {
	if nk, dep := hadoopxml.Deprecated(key); dep {
		key = nk
	}
	for _, hk := range hadoopKeys {
		if hk.Key == key {
			_, err := parseHadoop(hk.Type, value)
			return true, err
		}
	}
	return false, nil
}
