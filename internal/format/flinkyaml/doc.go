// Package flinkyaml reads Flink's standard YAML configuration (config.yaml,
// Flink >= 1.19) and the spec.flinkConfiguration of flink-kubernetes-operator
// FlinkDeployment manifests, and returns them as Flink sees them.
//
// go.yaml.in/yaml/v3 is used only to parse and to locate nodes; nothing is
// ever re-encoded. Typing follows Flink's loader, snakeyaml-engine with the
// YAML 1.2 core schema (Flink 1.20 YamlParserUtils.java L83-84), not
// yaml.v3's YAML 1.1 style resolver:
// `010` is the int 10, `0o10` is 8, `1_000`, `0b101`, `yes`, `on` and dates
// stay strings. Nested mappings are flattened with "." the way
// GlobalConfiguration.flatten does; a list becomes the flow string Flink's
// YamlParserUtils.toYAMLString renders (e.g. `[a, '*', 1, 'true']`).
//
// Every key and value keeps the byte span of its token in the source
// (quotes, tags and anchors included), so an editor can splice the bytes.
// yaml.v3 reports rune columns; they are converted to byte offsets here,
// with yaml.v3's own line breaks (LF, CRLF, CR, NEL, LS, PS) and a leading
// byte-order mark taken into account.
//
// Choices made where Flink's behaviour is not a plain parse result:
//
//   - Duplicate keys in one mapping are a ParseError at the second key, like
//     snakeyaml-engine's DuplicateKeyException. Keys are compared as typed
//     values, so `010` and `10` collide, `1` and `'1'` do not.
//   - A flat key and a nested path that flatten to the same key (`a.b: 1`
//     and `a: {b: 2}`) are not a YAML error. Flink flattens both into one
//     map and the one later in the file wins; both entries are kept, in
//     file order, with the notice NoticeFlatNestedOverlap on the later one.
//   - Aliases are resolved as snakeyaml-engine and Flink's flatten do
//     (alias.go): an alias to a scalar is that scalar, an alias to a
//     mapping is flattened under its key, an alias to a sequence is that
//     list, and a collection repeated inside one list is dumped with an
//     anchor (&id001 ... *id001) as YamlParserUtils.toYAMLString does. The
//     key and value spans of an entry reached through an alias are the key
//     holding the alias and the `*name` token. More than 50 aliases to
//     collections (snakeyaml-engine's maxAliasesForCollections), a
//     recursive alias, or aliases expanding to more than 10000 keys are a
//     ParseError.
//   - `!!binary` is a byte[], as snakeyaml-engine 2.6's JsonSchema (which
//     CoreSchema extends) constructs it, with Flink's string form (binary.go).
//     Other explicit tags outside the core schema (`!!timestamp`, local
//     tags such as `!secret`) are a ParseError, as they are for Flink (no
//     constructor for the tag); so is `!!set`, which snakeyaml-engine would
//     build (a deliberate difference, docs/input.md). `!ENV` is a string.
//   - A mapping key that is not a string (or null) is a ParseError after
//     the whole file is read: Flink's flatten casts every key to String
//     (flatten.go nonStringKey). A `%YAML 1.x` directive is read as 1.2
//     (decode.go yamlInput).
//   - A scalar's Value is Flink's string form of the loaded object
//     (YamlParserUtils.toYAMLString for what is not a String): `.inf`,
//     `-.inf`, `.nan` for those floats.
//   - A null leaf (`key:`, `key: ~`, `key: null`) becomes an entry of kind
//     null with the notice NoticeNullValue: Flink's flatten passes the null
//     on and Configuration.setValueInternal throws "Value must not be null.",
//     so Flink would refuse to load the file (read in Flink's code, not
//     tested).
package flinkyaml
