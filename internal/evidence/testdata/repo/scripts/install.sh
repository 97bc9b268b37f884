#!/bin/sh
FLINK_VERSION=1.11.6
curl -fLO "https://archive.apache.org/dist/flink/flink-1.11.6/flink-1.11.6-bin-scala_2.12.tgz"
# flink-9.9.9-bin-scala_2.12.tgz in a comment is no evidence
tar xzf "flink-${FLINK_VERSION}-bin-scala_2.12.tgz"
