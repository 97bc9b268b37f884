// Package flinkconf reads a legacy flink-conf.yaml exactly as Flink's
// GlobalConfiguration.loadLegacyYAMLResource does (F1.20
// GlobalConfiguration.java:L215-266, used by Flink up to 1.20 and by the 2.x
// migration script). That parser is not YAML: for every line it drops
// everything from the first '#', trims, splits at the first ": " and keeps the
// rest verbatim, quotes included; lines it cannot split are skipped with a
// WARN, and a key set twice takes the last value.
//
// Parse returns every entry Flink would set, with the byte spans of its key
// and value, and records as notices what Flink does silently that a YAML
// reader would not expect: skipped "key:value" lines, nested YAML flattened
// into wrong top-level keys, values cut at '#', quotes kept, duplicates.
package flinkconf
