# The job is built with Maven, Flink is installed from the release archive,
# the Hadoop configuration is prepared in a stage of its own.
FROM maven:3.9-eclipse-temurin-11 AS build
WORKDIR /src
COPY pom.xml .
COPY src ./src
RUN mvn -q package -DskipTests

FROM alpine:3.19 AS hadoop-conf
COPY deploy/hadoop/ /conf/hadoop/
RUN sed -i 's/NAMENODE/nn1.example.com/' /conf/hadoop/core-site.xml

FROM eclipse-temurin:11-jre AS flink
ARG FLINK_VERSION=1.18.1
ENV FLINK_HOME=/opt/flink
WORKDIR $FLINK_HOME
RUN curl -fsSL https://archive.apache.org/dist/flink/flink-${FLINK_VERSION}/flink-${FLINK_VERSION}-bin-scala_2.12.tgz | tar -xz -C /opt \
 && mv /opt/flink-${FLINK_VERSION}/* $FLINK_HOME/
COPY deploy/flink/ conf/
RUN cat > conf/core-site.xml <<XML
<configuration>
  <property><name>fs.defaultFS</name><value>hdfs://nn1:8020</value></property>
</configuration>
XML

FROM flink
ENV HADOOP_CONF_DIR=/etc/hadoop/conf
COPY --from=hadoop-conf /conf/hadoop ${HADOOP_CONF_DIR}
COPY --from=build /src/target/lib/hadoop-hdfs-client-3.3.6.jar $FLINK_HOME/lib/
COPY --from=build /src/target/job.jar $FLINK_HOME/usrlib/job.jar
