flink_version = "1.20"

cluster "prod" {
  datanodes           = 12 # from namenode http://nn:9870/jmx?qry=Hadoop:service=NameNode,name=NameNodeInfo, 2026-09-01
  datanode_free_bytes = "4t"
  facts "namenode" {
    source      = "http://nn:9870/jmx?qry=Hadoop:service=NameNode,name=NameNodeInfo"
    observed_at = "2026-09-01T08:00:00Z"
    attributes  = ["datanodes", "datanode_free_bytes"]
  }
}
