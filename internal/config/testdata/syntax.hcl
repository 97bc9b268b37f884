cluster "prod" {
  datanodes = 3

rule "CKPT101" { enabled = true  severity = "info" }
