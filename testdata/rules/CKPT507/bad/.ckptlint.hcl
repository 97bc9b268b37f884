flink_version = "1.20"
