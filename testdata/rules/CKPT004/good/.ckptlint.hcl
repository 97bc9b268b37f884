# The Dockerfile of bad/ on the declared release.
flink_version = "1.20"
