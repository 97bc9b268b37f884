package ckptlint.lib.blocksize_test

import data.ckptlint.lib.blocksize as bs

test_hadoop_size_takes_the_largest_exact_unit if {
	bs.hadoop_size(1048576) == "1m"
	bs.hadoop_size(2147483648) == "2g"
	bs.hadoop_size(1000448) == "977k"
	bs.hadoop_size(1000) == "1000"
	bs.hadoop_size(0) == "0"
}

test_same_size_compares_spellings_not_units if {
	bs.same_size("1m", 1048576)
	bs.same_size(" 1024K ", 1048576)
	bs.same_size("1048576", 1048576)
	not bs.same_size("1mb", 1048576)
	not bs.same_size("2m", 1048576)
}

test_round_up if {
	bs.round_up(1000000, 512) == 1000448
	bs.round_up(1048576, 512) == 1048576
	bs.round_up(0, 512) == 512
}

test_source_names_the_origin if {
	bs.source({"source": "default"}) == "the Hadoop default"
	bs.source({"source": "cluster-config"}) == "the cluster block of .ckptlint.hcl"
	bs.source({"source": "file", "loc": {"file": "hdfs-site.xml", "line": 4}}) == "hdfs-site.xml:4"
}

test_hadoop_hint_reads_the_models_advice if {
	bs.hadoop_hint({"raw": "1mb", "error": "Invalid size prefix 'b' in '1mb'. Allowed prefixes are k, m, g, t, p, e(case insensitive); Hadoop takes a single letter: write \"1m\""}) == "1m"
	bs.hadoop_hint({"raw": "1024b", "error": "x; Hadoop has no \"b\" suffix: write the number of bytes \"1024\""}) == "1024"
	not bs.hadoop_hint({"raw": "abc", "error": "Invalid size prefix 'c' in 'abc'. Allowed prefixes are k, m, g, t, p, e(case insensitive)"})
}
