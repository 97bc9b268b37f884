# Flink cookbook attributes
default['flink']['version'] = '1.17.1'
default['flink']['scala_version'] = '2.12'
default['flink']['url'] = "https://archive.apache.org/dist/flink/flink-#{node['flink']['version']}/flink-#{node['flink']['version']}-bin-scala_2.12.tgz"
default['flink']['mirror'] = 'https://archive.apache.org/dist/flink/flink-1.17.1/flink-1.17.1-bin-scala_2.12.tgz'
default[:hadoop][:version] = "3.3.6"
node.override['flink']['hadoop_version'] = '3.3.4' # the client the job bundles
default.flink.checkpoint_dir = 'hdfs:///flink/checkpoints'
=begin
default['flink']['version'] = '0.0.1'
=end
default['flink']['version'] = '1.17.' + '2' if false
