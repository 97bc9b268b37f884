package deploy

import (
	"path"
	"regexp"
	"strings"
	"sync"
)

// Products of a Version.
const (
	ProductFlink  = "flink"
	ProductHadoop = "hadoop"
)

var leadingVersion = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^v?(\d+\.\d+(?:\.\d+)?)(?:$|[^.\d])`) })

// VersionPrefix returns the major.minor[.patch] a tag or value starts with
// ("1.17.1" of "1.17.1-scala_2.12"), "" when it starts with none.
func VersionPrefix(s string) string {
	if m := leadingVersion().FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

// versionVar reads a variable or property that names a version:
// FLINK_VERSION, flinkVersion, flink.version, flink_version (Hadoop alike).
var versionVar = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(flink|hadoop)[._-]?version$`) })

// VersionVar returns the product whose version a variable or property of
// that name states (ProductFlink for FLINK_VERSION, flinkVersion,
// flink.version, flink_version; ProductHadoop alike), "" for any other name.
func VersionVar(name string) string {
	if m := versionVar().FindStringSubmatch(name); m != nil {
		return strings.ToLower(m[1])
	}
	return ""
}

// The distribution archives' names: Flink's flink-1.17.1-bin-scala_2.12.tgz
// (flink-1.4.2-bin-hadoop28-scala_2.11.tgz before 1.11), as
// https://archive.apache.org/dist/flink/ lists them, and Hadoop's
// hadoop-3.3.6.tar.gz (https://archive.apache.org/dist/hadoop/common/).
var (
	flinkTarball = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|[/=:\s])(flink-(\d+\.\d+(?:\.\d+)?)-bin[-\w.]*\.t(?:ar\.)?gz)`)
	})
	hadoopTarball = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|[/=:\s])(hadoop-(\d+\.\d+\.\d+)\.tar\.gz)`) })
)

// Tarballs returns the distribution archives named in one word (a URL, a
// file name, an assignment's value) as versions read at loc, What
// "tarball <name>".
func Tarballs(word string, loc Loc) []Version {
	if !strings.Contains(word, "gz") {
		return nil
	}
	var out []Version
	for _, m := range flinkTarball().FindAllStringSubmatch(word, -1) {
		out = append(out, Version{Product: ProductFlink, Version: m[2], What: "tarball " + m[1], Loc: loc})
	}
	for _, m := range hadoopTarball().FindAllStringSubmatch(word, -1) {
		out = append(out, Version{Product: ProductHadoop, Version: m[2], What: "tarball " + m[1], Loc: loc})
	}
	return out
}

// hadoopJar matches the jars that carry a Hadoop release's version in their
// name: Flink's pre-bundled Hadoop (flink-shaded-hadoop-2-uber-2.8.3-10.0.jar,
// flink-shaded-hadoop-3-uber-3.1.1.7.2.9.0-173-9.0.jar: the Hadoop version,
// then flink-shaded's; https://flink.apache.org/downloads/ "Pre-bundled
// Hadoop") and Hadoop's own artifacts (hadoop-common-3.3.6.jar,
// hadoop-hdfs-client-3.3.6.jar).
var hadoopJar = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:flink-shaded-hadoop-[23]-uber-|hadoop-(?:common|hdfs|hdfs-client|client|client-api|client-runtime|auth|annotations)-)(\d+\.\d+\.\d+)[-.\w]*\.jar$`)
})

// JarVersion returns the Hadoop version a jar's file name states, as a
// version read at loc, What "jar <name>".
func JarVersion(file string, loc Loc) (Version, bool) {
	base := path.Base(file)
	if m := hadoopJar().FindStringSubmatch(strings.ToLower(base)); m != nil {
		return Version{Product: ProductHadoop, Version: m[1], What: "jar " + base, Loc: loc}, true
	}
	return Version{}, false
}
