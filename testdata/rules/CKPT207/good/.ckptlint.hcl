# "m" (minutes) is read only from Flink 1.15.
flink_version = "1.14"
