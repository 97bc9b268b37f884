flink_version = "1.20"

# The cluster does not change often; facts up to a year old are fine.
facts_max_age = "365d"

cluster "prod" {
  datanodes           = 12
  datanode_free_bytes = "4t"
  facts "namenode" {
    source      = "http://nn:9870/jmx?qry=Hadoop:service=NameNode,name=NameNodeInfo"
    observed_at = "2026-09-01T08:00:00Z"
    attributes  = ["datanodes", "datanode_free_bytes"]
  }
}
