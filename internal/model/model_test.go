package model

import (
	"slices"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/format/flinkconf"
	"github.com/ckptlint/ckptlint/internal/format/flinkyaml"
	"github.com/ckptlint/ckptlint/internal/format/hadoopxml"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/template"
)

func flink(src string) *parsed.File {
	f := flinkconf.Parse("flink-conf.yaml", []byte(src))
	template.MarkEntries(f, template.For(f.Format))
	return f
}

// TestFlinkKeyResolution checks key fallbacks and deprecations per version
// (Flink Configuration.applyWithOption; renames FLINK-29372, FLINK-34482).
func TestFlinkKeyResolution(t *testing.T) {
	V := func(major, minor int, patch ...int) Version {
		v := Version{Major: major, Minor: minor}
		if len(patch) > 0 {
			v.Patch = patch[0]
		}
		return v
	}
	tests := []struct {
		name    string
		src     string
		version Version
		field   string
		want    any
		key     string
		problem string // a key_uses problem expected for key, "" for none
	}{
		{"1.20 reads the new checkpoint dir key", "execution.checkpointing.dir: hdfs:///a\n", V(1, 20), "checkpointing.dir", "hdfs:///a", "execution.checkpointing.dir", ""},
		{"1.17 does not read the 1.20 key", "execution.checkpointing.dir: hdfs:///a\n", V(1, 17), "checkpointing.dir", nil, "execution.checkpointing.dir", "unread"},
		{"1.20 still reads the deprecated key", "state.checkpoints.dir: hdfs:///b\n", V(1, 20), "checkpointing.dir", "hdfs:///b", "state.checkpoints.dir", "deprecated"},
		{"1.17 reads state.checkpoints.dir without deprecation", "state.checkpoints.dir: hdfs:///b\n", V(1, 17), "checkpointing.dir", "hdfs:///b", "state.checkpoints.dir", ""},
		{"new key wins over the deprecated one (Flink Configuration.applyWithOption)", "state.checkpoints.dir: hdfs:///old\nexecution.checkpointing.dir: hdfs:///new\n", V(1, 20), "checkpointing.dir", "hdfs:///new", "state.checkpoints.dir", "shadowed"},
		{"state.backend renamed in 1.17", "state.backend: rocksdb\n", V(1, 17), "state_backend.type", "rocksdb", "state.backend", "deprecated"},
		{"state.backend plain on 1.16", "state.backend: rocksdb\n", V(1, 16), "state_backend.type", "rocksdb", "state.backend", ""},
		{"default state backend hashmap from 1.19", "", V(1, 19), "state_backend.type", "hashmap", "", ""},
		{"no default state backend before 1.19", "", V(1, 18), "state_backend.type", nil, "", ""},
		{"timeout default 10 min", "", V(1, 20), "checkpointing.timeout", int64(600000), "", ""},
		{"bare number duration is milliseconds (Flink TimeUtils.parseDuration)", "execution.checkpointing.timeout: 600\n", V(1, 20), "checkpointing.timeout", int64(600), "", ""},
		{"m means minutes from 1.15", "execution.checkpointing.interval: 3m\n", V(1, 15), "checkpointing.interval", int64(180000), "", ""},
		{"m rejected before 1.15 (value unset)", "execution.checkpointing.interval: 3m\n", V(1, 14), "checkpointing.interval", nil, "", ""},
		{"tolerable failed effective 0 before 1.19", "", V(1, 13), "checkpointing.tolerable_failed", 0, "", ""},
		{"unaligned old key deprecated in 1.17", "execution.checkpointing.unaligned: true\n", V(1, 17), "checkpointing.unaligned", true, "execution.checkpointing.unaligned", "deprecated"},
		{"fs.hdfs.hadoopconf not read on 2.0", "fs.hdfs.hadoopconf: /etc/hadoop\n", V(2, 0), "hadoop.hadoopconf_option", nil, "fs.hdfs.hadoopconf", "unread"},
		{"an ERB placeholder is unknown, not invalid: the default stands", "parallelism.default: <%= @parallelism_default %>\n", V(1, 18), "parallelism.default", 1, "", ""},
		{"a Helm placeholder likewise", "execution.checkpointing.timeout: {{ .Values.timeout }}\n", V(1, 18), "checkpointing.timeout", int64(600000), "", ""},
		{"quotes kept by the legacy parser break durations", "execution.checkpointing.timeout: \"10 s\"\n", V(1, 18), "checkpointing.timeout", int64(600000), "", ""},
		// Releases before 1.5, from their sources (issue 23). 1.1.3 reads only
		// recovery.mode: high-availability came with 1.2 (FLINK-4253).
		{"1.1 reads recovery.mode", "recovery.mode: zookeeper\nhigh-availability: zookeeper\n", V(1, 1, 3), "ha.type", "zookeeper", "recovery.mode", ""},
		{"1.1 does not read high-availability (FLINK-4253, 1.2)", "recovery.mode: zookeeper\nhigh-availability: none\n", V(1, 1, 3), "ha.type", "zookeeper", "high-availability", "unread"},
		{"1.2 reads high-availability before recovery.mode (HA_MODE.withDeprecatedKeys)", "recovery.mode: zookeeper\nhigh-availability: none\n", V(1, 2), "ha.type", "none", "recovery.mode", "shadowed"},
		{"1.17 reads recovery.mode before high-availability (withDeprecatedKeys(\"recovery.mode\", \"high-availability\"))", "recovery.mode: zookeeper\nhigh-availability: none\n", V(1, 17), "ha.type", "zookeeper", "high-availability", "shadowed"},
		{"1.1 reads recovery.zookeeper.storageDir", "recovery.zookeeper.storageDir: hdfs:///r\nhigh-availability.zookeeper.storageDir: hdfs:///h\n", V(1, 1, 3), "ha.storage_dir", "hdfs:///r", "recovery.zookeeper.storageDir", ""},
		{"0.9 has no JobManager HA (FLINK-2291, 0.10)", "recovery.mode: zookeeper\n", V(0, 9, 1), "ha.type", "NONE", "recovery.mode", "unread"},
		{"0.9 reads the slots, the parallelism and the state backend", "taskmanager.numberOfTaskSlots: 4\nparallelism.default: 8\nstate.backend: filesystem\n", V(0, 9, 1), "parallelism.default", 8, "taskmanager.numberOfTaskSlots", ""},
		{"0.9 reads state.backend", "state.backend: filesystem\n", V(0, 9, 1), "state_backend.type", "filesystem", "state.backend", ""},
		{"1.4: state.checkpoints.dir does not shadow the backend's directory", "state.checkpoints.dir: hdfs:///meta\nstate.backend.fs.checkpointdir: hdfs:///data\n", V(1, 4), "checkpointing.dir", "hdfs:///data", "state.backend.fs.checkpointdir", ""},
		{"1.4: state.checkpoints.dir is read (externalized checkpoint metadata), not unread", "state.checkpoints.dir: hdfs:///meta\n", V(1, 4), "checkpointing.dir", nil, "state.checkpoints.dir", ""},
		{"1.5: state.checkpoints.dir is the backend's directory", "state.checkpoints.dir: hdfs:///meta\nstate.backend.fs.checkpointdir: hdfs:///data\n", V(1, 5), "checkpointing.dir", "hdfs:///meta", "state.backend.fs.checkpointdir", "shadowed"},
		{"1.1 reads savepoints.state.backend.fs.dir undeprecated", "savepoints.state.backend.fs.dir: hdfs:///sp\n", V(1, 1), "checkpointing.savepoint_dir", "hdfs:///sp", "savepoints.state.backend.fs.dir", ""},
		{"1.2 deprecates it for state.savepoints.dir", "savepoints.state.backend.fs.dir: hdfs:///sp\n", V(1, 2), "checkpointing.savepoint_dir", "hdfs:///sp", "savepoints.state.backend.fs.dir", "deprecated"},
		{"num-retained from 1.3 (FLINK-4754)", "state.checkpoints.num-retained: 3\n", V(1, 2), "checkpointing.num_retained", 1, "state.checkpoints.num-retained", "unread"},
		{"inline threshold default 1 KiB before 1.11 (FLINK-17865)", "", V(1, 10), "checkpointing.data_inline_threshold", int64(1024), "", ""},
		{"inline threshold default 20 KiB from 1.11", "", V(1, 11), "checkpointing.data_inline_threshold", int64(20 * 1024), "", ""},
		{"alignment-timeout from 1.12 (FLINK-19680)", "execution.checkpointing.alignment-timeout: 10 s\n", V(1, 11), "checkpointing.aligned_checkpoint_timeout", int64(0), "execution.checkpointing.alignment-timeout", "unread"},
		{"before 1.10 a boolean that is not true is false (Boolean.parseBoolean)", "state.backend.incremental: yes\n", V(1, 5), "checkpointing.incremental", false, "", ""},
		{"before 1.10 an invalid int is the default with a WARN", "parallelism.default: 1.5\n", V(1, 9), "parallelism.default", 1, "", ""},
		{"the inline threshold is an int of bytes before 1.11", "state.backend.fs.memory-threshold: 4096\n", V(1, 10), "checkpointing.data_inline_threshold", int64(4096), "", ""},
		{"kubernetes.container.image from 1.10 (FLINK-10935)", "kubernetes.container.image: flink:1.9\n", V(1, 9), "parallelism.default", 1, "kubernetes.container.image", "unread"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vals, uses := flinkEffective(flink(tt.src), tt.version)
			v := vals[tt.field]
			if v == nil {
				t.Fatalf("no field %s", tt.field)
			}
			if v.Value != tt.want {
				t.Errorf("value = %#v (%s), want %#v", v.Value, v.Error, tt.want)
			}
			if template.Has(tt.src, template.Options{}) && (v.Error != "" || !v.Template) {
				t.Errorf("template placeholder: error %q, template %v; want no error, template true", v.Error, v.Template)
			}
			var got string
			for _, u := range uses {
				if u.Key == tt.key {
					got = u.Problem
				}
			}
			if got != tt.problem {
				t.Errorf("key use of %s = %q, want %q (uses %+v)", tt.key, got, tt.problem, uses)
			}
		})
	}
}

// TestHadoopLookupOrder checks Flink's Hadoop configuration order (Flink
// 1.20 HadoopUtils.getHadoopConfiguration): fs.hdfs.hadoopconf, then
// HADOOP_CONF_DIR, then flink.hadoop.*, with <final> protecting a value
// against later resources (Hadoop 3.4.1 Configuration.java L3546-3580).
func TestHadoopLookupOrder(t *testing.T) {
	site := func(path, body string) *parsed.File {
		return hadoopxml.Parse(path, []byte("<configuration>"+body+"</configuration>"), hadoopxml.Options{})
	}
	prop := func(k, v string, final bool) string {
		f := ""
		if final {
			f = "<final>true</final>"
		}
		return "<property><name>" + k + "</name><value>" + v + "</value>" + f + "</property>"
	}
	tests := []struct {
		name   string
		client []Resource
		flink  string
		ver    Version
		want   int64
		source string
	}{
		{"default 128 MiB", nil, "", V(1, 20), 128 << 20, "default"},
		{"HADOOP_CONF_DIR overrides fs.hdfs.hadoopconf", []Resource{
			{File: site("a/hdfs-site.xml", prop("dfs.blocksize", "64m", false)), Via: "fs.hdfs.hadoopconf"},
			{File: site("b/hdfs-site.xml", prop("dfs.blocksize", "2m", false)), Via: "env.hadoop.conf.dir"},
		}, "", V(1, 17), 2 << 20, "file"},
		{"flink.hadoop.* overrides the files from 1.13", []Resource{
			{File: site("b/hdfs-site.xml", prop("dfs.blocksize", "2m", false)), Via: "same-dir"},
		}, "flink.hadoop.dfs.blocksize: 1m\n", V(1, 13), 1 << 20, "flink.hadoop"},
		{"flink.hadoop.* ignored before 1.13", []Resource{
			{File: site("b/hdfs-site.xml", prop("dfs.blocksize", "2m", false)), Via: "same-dir"},
		}, "flink.hadoop.dfs.blocksize: 1m\n", V(1, 12), 2 << 20, "file"},
		{"final protects against later resources", []Resource{
			{File: site("a/hdfs-site.xml", prop("dfs.blocksize", "4m", true)), Via: "fs.hdfs.hadoopconf"},
			{File: site("b/hdfs-site.xml", prop("dfs.blocksize", "2m", false)), Via: "env.hadoop.conf.dir"},
		}, "", V(1, 17), 4 << 20, "file"},
		{"flink.hadoop.* is set(), which final does not stop (Configuration.getProps applies the overlay last)", []Resource{
			{File: site("a/hdfs-site.xml", prop("dfs.blocksize", "4m", true)), Via: "fs.hdfs.hadoopconf"},
		}, "flink.hadoop.dfs.blocksize: 1m\n", V(1, 17), 1 << 20, "flink.hadoop"},
		{"flink.hadoop.dfs.block.size sets dfs.blocksize (deprecated name)", nil, "flink.hadoop.dfs.block.size: 2m\n", V(1, 17), 2 << 20, "flink.hadoop"},
		{"deprecated dfs.block.size is read as dfs.blocksize (Hadoop HdfsConfiguration)", []Resource{
			{File: site("b/hdfs-site.xml", prop("dfs.block.size", "8m", false)), Via: "same-dir"},
		}, "", V(1, 17), 8 << 20, "file"},
		{"invalid size keeps the default and says why", []Resource{
			{File: site("b/hdfs-site.xml", prop("dfs.blocksize", "1mb", false)), Via: "same-dir"},
		}, "", V(1, 17), 128 << 20, "file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Set{Flink: flink(tt.flink), Client: tt.client, FlinkVersion: Resolved{Version: tt.ver, Source: "flag"}}
			v := hadoopEffective(s)["hdfs_client.blocksize"]
			if v.Value != tt.want || v.Source != tt.source {
				t.Errorf("blocksize = %v from %s (error %q), want %v from %s", v.Value, v.Source, v.Error, tt.want, tt.source)
			}
		})
	}
}

// TestHadoopDefaultsPerRelease: the default the NameNode applies is that
// of its release (issue 23): dfs.namenode.fs-limits.max-blocks-per-file is
// 1048576 from 2.1 (HDFS-4305; Hadoop 2.6.5's hdfs-default.xml) and 10000
// from 3.0 (HDFS-5517, RELEASENOTES.3.0.0-alpha2.md); without a known
// version in the table the newest default stands and says how it varies.
func TestHadoopDefaultsPerRelease(t *testing.T) {
	for _, c := range []struct {
		hadoop Resolved
		want   int64
		varies bool
	}{
		{Resolved{Version: Version{2, 7, 3}, Source: "config"}, 1048576, false},
		{Resolved{Version: V(2, 10), Source: "image"}, 1048576, false},
		{Resolved{Version: Version{3, 0, 0}, Source: "config"}, 10000, false},
		{Resolved{Version: Version{3, 4, 1}, Source: "config"}, 10000, false},
		{Resolved{Source: "unknown"}, 10000, true},
		{Resolved{Version: V(2, 0), Source: "config"}, 10000, true}, // before the table's first release
		{Resolved{Version: V(3, 5), Source: "config"}, 10000, true}, // after its last
	} {
		s := &Set{Flink: flink(""), FlinkVersion: Resolved{Version: V(1, 18), Source: "flag"}, HadoopVersion: c.hadoop}
		v := hadoopEffective(s)["hdfs_cluster.max_blocks_per_file"]
		if v.Value != c.want || (v.Varies != "") != c.varies {
			t.Errorf("Hadoop %v: max-blocks-per-file %v (varies %q), want %d, varies %v", c.hadoop.Version, v.Value, v.Varies, c.want, c.varies)
		}
	}
	// The minimum block size (HDFS-4305, 2.1) changed before the table's
	// first release only: a version that is not known is taken to be in the
	// table, a known older one is outside it.
	for _, c := range []struct {
		hadoop Resolved
		varies bool
	}{{Resolved{Source: "unknown"}, false}, {Resolved{Version: V(2, 0), Source: "config"}, true}, {Resolved{Version: V(3, 3), Source: "config"}, false}} {
		s := &Set{Flink: flink(""), FlinkVersion: Resolved{Version: V(1, 18), Source: "flag"}, HadoopVersion: c.hadoop}
		if v := hadoopEffective(s)["hdfs_cluster.min_block_size"]; v.Value != int64(1<<20) || (v.Varies != "") != c.varies {
			t.Errorf("Hadoop %v: min-block-size %v (varies %q), want 1 MiB, varies %v", c.hadoop.Version, v.Value, v.Varies, c.varies)
		}
	}
}

func TestParseVersion(t *testing.T) {
	for in, want := range map[string]Version{"1.20": V(1, 20), "v1_17": V(1, 17), "3.1.0": {3, 1, 0}, "2.10.1": {2, 10, 1}} {
		got, err := ParseVersion(in)
		if err != nil || got != want {
			t.Errorf("ParseVersion(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseVersion("latest"); err == nil {
		t.Error("ParseVersion(latest) succeeded")
	}
}

// TestFinalAcrossResources mirrors Hadoop's final-parameter tests on the
// resources Flink's client loads: Configuration.loadProperty adds a key to
// finalParameters even without a value, and every later resource's
// definition is then ignored. Same behaviour on every Hadoop line since the
// StAX parser (2.9/3.0: HADOOP-14216) and in the DOM parser before it.
func TestFinalAcrossResources(t *testing.T) {
	site := func(path, body string) *parsed.File {
		return hadoopxml.Parse(path, []byte("<configuration>"+body+"</configuration>"), hadoopxml.Options{})
	}
	tests := []struct {
		name, upstream string
		first, second  string
		want           int64
		final          bool
		codes          []string // notices on the second file
	}{
		{"final with an empty value locks the key", "TestConfiguration.testFinalParam",
			`<property><name>dfs.blocksize</name><value></value><final>true</final></property>`,
			`<property><name>dfs.blocksize</name><value>1m</value></property>`,
			128 << 20, true, []string{NoticeFinalEmptyResource}},
		{"final with a missing value locks the key", "TestConfiguration.testFinalParam",
			`<property><name>dfs.blocksize</name><final>true</final></property>`,
			`<property><name>dfs.blocksize</name><value>1m</value></property>`,
			128 << 20, true, []string{NoticeFinalEmptyResource}},
		{"final on the old name locks the new one", "TestConfigurationDeprecation.testDeprecationForFinalParameters",
			`<property><name>dfs.block.size</name><value>4m</value><final>true</final></property>`,
			`<property><name>dfs.blocksize</name><value>1m</value></property>`,
			4 << 20, true, []string{NoticeFinalOverrideResource}},
		{"final on the new name locks the old one", "TestConfigurationDeprecation.testDeprecationForFinalParameters",
			`<property><name>dfs.blocksize</name><value>4m</value><final>true</final></property>`,
			`<property><name>dfs.block.size</name><value>1m</value></property>`,
			4 << 20, true, []string{NoticeFinalOverrideResource}},
		{"the same value again is no override", "TestConfiguration.testFinalWarnings",
			`<property><name>dfs.blocksize</name><value>4m</value><final>true</final></property>`,
			`<property><name>dfs.blocksize</name><value>4m</value></property>`,
			4 << 20, true, nil},
		{"without final the later resource wins", "Configuration javadoc, Final Parameters",
			`<property><name>dfs.blocksize</name><value>4m</value></property>`,
			`<property><name>dfs.blocksize</name><value>1m</value></property>`,
			1 << 20, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := site("a/core-site.xml", tt.first), site("b/hdfs-site.xml", tt.second)
			s := &Set{Client: []Resource{{File: a, Via: "same-dir"}, {File: b, Via: "same-dir"}}, FlinkVersion: Resolved{Version: V(1, 20), Source: "flag"}}
			v := hadoopEffective(s)["hdfs_client.blocksize"]
			if v.Value != tt.want || v.Final != tt.final {
				t.Errorf("%s: blocksize = %v final %v, want %v final %v", tt.upstream, v.Value, v.Final, tt.want, tt.final)
			}
			var codes []string
			for _, n := range crossFinalNotices([]*parsed.File{a, b})[b] {
				codes = append(codes, n.Code)
				if !strings.Contains(n.Message, "a/core-site.xml:1") {
					t.Errorf("notice %q does not name the final definition", n.Message)
				}
			}
			if !slices.Equal(codes, tt.codes) {
				t.Errorf("%s: notices %v, want %v", tt.upstream, codes, tt.codes)
			}
		})
	}
}

// TestFlinkRefusalTexts mirrors Flink's ConfigurationUtils tests: a
// config.yaml integer outside int's range is refused with
// ConfigurationUtils.convertToInt's own text
// (ConfigurationUtilsTest / ConfigurationConversionsTest "overflows/underflows"),
// and a string value with Integer.parseInt's.
func TestFlinkRefusalTexts(t *testing.T) {
	tests := []struct {
		name, src, field, want string
	}{
		{"a YAML integer beyond int (a Long)", "parallelism.default: 2147483657\n", "parallelism.default",
			"Configuration value 2147483657 overflows/underflows the integer type."},
		{"a YAML integer below int", "parallelism.default: -2147483649\n", "parallelism.default",
			"Configuration value -2147483649 overflows/underflows the integer type."},
		{"a YAML integer beyond long (a BigInteger) goes through Integer.parseInt", "parallelism.default: 99999999999999999999\n", "parallelism.default",
			`For input string: "99999999999999999999"`},
		{"the largest int is read", "parallelism.default: 2147483647\n", "parallelism.default", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := flinkyaml.ParseConfig("config.yaml", []byte(tt.src))
			if f.Err != nil {
				t.Fatal(f.Err)
			}
			vals, _ := flinkEffective(f, V(1, 20))
			v := vals[tt.field]
			if v == nil {
				t.Fatalf("no value for %s in %v", tt.field, vals)
			}
			if !strings.HasPrefix(v.Error, tt.want) || (tt.want == "") != (v.Error == "") {
				t.Errorf("error %q, want it to start with %q", v.Error, tt.want)
			}
		})
	}
}

// TestLongDuration: the input document holds the java.time.Duration Flink
// holds (TimeUtils.parseDuration), in ms, beyond time.Duration's range.
func TestLongDuration(t *testing.T) {
	vals, _ := flinkEffective(flink("execution.checkpointing.interval: 987654d\n"), V(1, 20))
	v := vals["checkpointing.interval"]
	if v.Value != int64(85_333_305_600_000) || v.Display != "987654 d" || v.Error != "" {
		t.Errorf("interval = %v (%q, error %q), want 85333305600000 ms shown as 987654 d", v.Value, v.Display, v.Error)
	}
}

// TestClientRaw: the raw values Hadoop's substitution reads
// (Configuration.getRaw over getProps(), Hadoop 3.4.1 L1150-1270): the
// client resources merged in Flink's order, later wins unless an earlier
// one made the key final, a final definition without a value keeps the
// value held so far (Configuration.loadProperty L3546-3568), flink.hadoop.*
// set() over all of it from Flink 1.13.
func TestClientRaw(t *testing.T) {
	site := func(path, body string) *parsed.File {
		return hadoopxml.Parse(path, []byte("<configuration>"+body+"</configuration>"), hadoopxml.Options{})
	}
	prop := func(k, v string) string { return "<property><name>" + k + "</name><value>" + v + "</value></property>" }
	final := func(k, v string) string {
		return "<property><name>" + k + "</name><value>" + v + "</value><final>true</final></property>"
	}
	s := &Set{
		Flink: flink("flink.hadoop.over: flink\n"),
		Client: []Resource{
			{File: site("c/core-site.xml", prop("later", "core")+final("locked", "core")+prop("kept", "core")+prop("over", "core")+prop("ref", "${later}")+prop("dep", "1")), Via: "same-dir"},
			{File: site("c/hdfs-site.xml", prop("later", "hdfs")+prop("locked", "hdfs")+"<property><name>kept</name><final>true</final></property>"+prop("kept", "hdfs")), Via: "same-dir"},
		},
		FlinkVersion: Resolved{Version: V(1, 17), Source: "flag"},
	}
	lookup := ClientRaw(s)
	if lookup == nil {
		t.Fatal("no lookup for files that refer to keys")
	}
	for k, want := range map[string]string{"later": "hdfs", "locked": "core", "kept": "core", "over": "flink", "ref": "${later}"} {
		if got, _, ok := lookup(k); !ok || got != want {
			t.Errorf("getRaw(%q) = %q, %v; want %q", k, got, ok, want)
		}
	}
	if _, _, ok := lookup("none"); ok {
		t.Error("an unset key is bound")
	}
	s.FlinkVersion = Resolved{Version: V(1, 12), Source: "flag"}
	if got, _, _ := ClientRaw(s)("over"); got != "core" {
		t.Errorf("Flink 1.12 sets no flink.hadoop.*: over = %q", got)
	}
	if ClientRaw(&Set{Client: []Resource{{File: site("c/core-site.xml", prop("a", "1"))}}}) != nil {
		t.Error("a lookup for files without ${")
	}
}

// TestFinalOverrideComparesRawValues: checkForOverride compares the value
// Hadoop holds with the new one as written, before ${var} substitution
// (Hadoop 3.4.1 Configuration.java L3574-3580), so "${b}" against "1" is
// an override even where ${b} is 1.
func TestFinalOverrideComparesRawValues(t *testing.T) {
	core := hadoopxml.Parse("c/core-site.xml", []byte("<configuration><property><name>a</name><value>${b}</value><final>true</final></property><property><name>b</name><value>1</value></property></configuration>"), hadoopxml.Options{})
	hdfs := hadoopxml.Parse("c/hdfs-site.xml", []byte("<configuration><property><name>a</name><value>1</value></property></configuration>"), hadoopxml.Options{})
	if got := core.Lookup("a").Value; got != "1" {
		t.Fatalf("a = %q", got)
	}
	notes := crossFinalNotices([]*parsed.File{core, hdfs})[hdfs]
	if len(notes) != 1 || notes[0].Code != NoticeFinalOverrideResource {
		t.Errorf("notices %+v, want one %s", notes, NoticeFinalOverrideResource)
	}
}

// TestConfigYAMLFloats: a config.yaml float's string form is toYAMLString's
// (".inf"), but ConfigurationUtils' number and duration converters read
// Double.toString ("Infinity"; Flink 1.20 ConfigurationUtils
// convertToDuration, convertToInt).
func TestConfigYAMLFloats(t *testing.T) {
	f := flinkyaml.ParseConfig("config.yaml", []byte("parallelism.default: .inf\nstate.checkpoints.dir: .inf\n"))
	if f.Err != nil {
		t.Fatal(f.Err)
	}
	vals, _ := flinkEffective(f, V(1, 20))
	if v := vals["parallelism.default"]; !strings.Contains(v.Error, `"Infinity"`) {
		t.Errorf("parallelism error = %q, want Integer.parseInt's, about \"Infinity\"", v.Error)
	}
	if v := vals["checkpointing.dir"]; v.Value != ".inf" {
		t.Errorf("dir = %v, want the string .inf", v.Value)
	}
}
