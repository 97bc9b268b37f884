flink_version = "1.14"
