flink_version = "1.17"
