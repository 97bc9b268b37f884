flink_version = "2.0"
