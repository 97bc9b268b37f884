#!/usr/bin/env bash
# Installs a Flink 1.17 standalone session cluster on a Hadoop edge node.
set -euo pipefail

FLINK_VERSION=1.17.1
SCALA_VERSION=2.12
INSTALL_DIR=/opt
FLINK_HOME="${INSTALL_DIR}/flink-${FLINK_VERSION}"

cd /tmp
wget -q "https://archive.apache.org/dist/flink/flink-${FLINK_VERSION}/flink-${FLINK_VERSION}-bin-scala_${SCALA_VERSION}.tgz"
curl -fsSLO https://archive.apache.org/dist/flink/flink-1.17.1/flink-1.17.1-bin-scala_2.12.tgz
tar -xzf flink-*-bin-scala_*.tgz -C "$INSTALL_DIR"

export HADOOP_HOME=/usr/hdp/current/hadoop-client
export HADOOP_CONF_DIR=$HADOOP_HOME/conf
export HADOOP_CLASSPATH=$(hadoop classpath)

# S3 as a plugin, the way Flink's docs show it
mkdir -p "$FLINK_HOME/plugins/s3-fs-hadoop"
cp "$FLINK_HOME/opt/flink-s3-fs-hadoop-${FLINK_VERSION}.jar" "$FLINK_HOME/plugins/s3-fs-hadoop/"

cat > "$FLINK_HOME/conf/flink-conf.yaml" <<EOF
jobmanager.rpc.address: $(hostname -f)
taskmanager.numberOfTaskSlots: 4
state.backend.type: rocksdb
state.checkpoints.dir: hdfs:///flink/checkpoints
execution.checkpointing.interval: 30 s
EOF

if [ -n "${EXTRA_SITE:-}" ]; then
	cat > "$HADOOP_CONF_DIR/core-site.xml" <<-'XML'
		<configuration>
		  <property><name>fs.defaultFS</name><value>hdfs://nn1:8020</value></property>
		</configuration>
	XML
fi

echo "execution.checkpointing.timeout: 10 min" >> "$FLINK_HOME/conf/flink-conf.yaml"
echo 'high-availability.storageDir: hdfs:///flink/ha' | sudo tee -a "$FLINK_HOME/conf/flink-conf.yaml" > /dev/null

"$FLINK_HOME/bin/start-cluster.sh"
FLINK_CONF_DIR=/etc/flink/conf "$FLINK_HOME"/bin/taskmanager.sh start
$FLINK_HOME/bin/flink run -d "$FLINK_HOME/examples/streaming/TopSpeedWindowing.jar"
$FLINK_HOME/bin/jobmanager.sh stop
