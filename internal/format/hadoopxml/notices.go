package hadoopxml

// Notice codes this package emits (parsed.Notice.Code).
const (
	// NoticeDuplicateKey marks a definition that a later one in the same
	// file (or an included file) replaces; Hadoop keeps the last value.
	NoticeDuplicateKey = "xml-duplicate-key"
	// SameValueMarker ends a NoticeDuplicateKey message, in parentheses,
	// when both definitions hold the same value: the override changes
	// nothing, so the hygiene policy reports it as info, not warning.
	SameValueMarker = "the same value as this definition"
	// NoticeFinalOverride marks a definition Hadoop ignores because an
	// earlier one of the same key was <final>true</final>.
	NoticeFinalOverride = "xml-final-override"
	// NoticeFinalEmptyOverride marks a definition Hadoop ignores because an
	// earlier one of the same key was final without a value: Hadoop logs
	// nothing (Configuration.checkForOverride warns only about a key that
	// holds a value) and the key keeps no value.
	NoticeFinalEmptyOverride = "xml-final-empty-override"
	// NoticeEmptyValue marks a property whose value is empty or missing;
	// Hadoop treats the key as having no value from that definition.
	NoticeEmptyValue = "xml-empty-value"
	// NoticeDeprecatedKey marks a deprecated key; Hadoop stores the value
	// under the replacement key.
	NoticeDeprecatedKey = "xml-deprecated-key"
	// NoticeFinalNotTrue marks a <final> whose text is not exactly "true"
	// (e.g. "TRUE", " true"); Hadoop does not make such a key final.
	NoticeFinalNotTrue = "xml-final-not-true"
	// NoticeCDATAIgnored marks a CDATA section inside <name>, <value>,
	// <final> or <source> of a file read as a release that drops CDATA
	// (Options.IgnoreCDATA, CDATAIgnored).
	NoticeCDATAIgnored = "xml-cdata-ignored"
	// NoticeCDATA marks a CDATA section read as text, as current Hadoop
	// releases do; the message gives the text of the releases that ignore
	// it (see CDATAIgnored).
	NoticeCDATA = "xml-cdata"
	// NoticeExternalEntity marks a value that refers to an external
	// (SYSTEM or PUBLIC) DTD entity, which ckptlint never reads: the value
	// Hadoop would use is unknown.
	NoticeExternalEntity = "xml-external-entity"
	// NoticeParamEntity marks a DOCTYPE that refers to external (never
	// fetched) or undeclared parameter entities; internal ones are
	// expanded.
	NoticeParamEntity = "xml-parameter-entity"
	// NoticeNoName marks a <property> without a usable name; Hadoop drops
	// it (or, for a blank name, stores it under the empty key).
	NoticeNoName = "xml-property-no-name"
	// NoticeIncludeNotFollowed marks an xi:include ckptlint did not read
	// (no file access, or a non-file URL).
	NoticeIncludeNotFollowed = "xml-include-not-followed"
	// NoticeDTDDefault marks an <!ATTLIST> default for an attribute Hadoop
	// reads (<property> name, value, final, source, tag; <include> href):
	// Hadoop's parser adds it to every such element that lacks it.
	NoticeDTDDefault = "xml-dtd-attribute-default"
	// NoticeRootElement marks a root element other than <configuration>:
	// Hadoop reads the properties inside it anyway.
	NoticeRootElement = "xml-root-element"
	// NoticeSubstitutionDepth marks a value whose ${var} expansion needs
	// more than 20 steps; Hadoop throws on every read of the key.
	NoticeSubstitutionDepth = "xml-substitution-depth"
)
