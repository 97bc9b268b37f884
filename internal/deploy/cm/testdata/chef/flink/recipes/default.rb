template "#{node['flink']['home']}/conf/flink-conf.yaml" do
  source 'flink-conf.yaml.erb'
end
default['flink']['version'] = '9.9.9'
