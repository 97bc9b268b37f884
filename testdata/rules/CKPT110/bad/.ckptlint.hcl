flink_version = "1.12"
