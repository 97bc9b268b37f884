# Three config sets, each with a file Flink or Hadoop refuses to load: a
# hdfs-site.xml that is not well-formed XML (a <value> never closed), a
# config.yaml indented with a tab (not YAML), and a config.yaml that sets a
# key twice (YAML, but Flink's parser rejects the duplicate).
flink_version  = "1.20"
hadoop_version = "3.3.6"
