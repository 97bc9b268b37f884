package fix

import (
	"github.com/beevik/etree"
)

// newHadoopFile is the content of a Hadoop configuration file that fix
// creates: an empty <configuration> the editor then adds properties to.
func newHadoopFile() []byte {
	doc := etree.NewDocument()
	doc.CreateProcInst("xml", `version="1.0" encoding="UTF-8"`)
	doc.CreateComment(" Created by ckptlint fix: HDFS client settings Flink's HDFS client reads from this directory. ")
	doc.CreateElement("configuration").SetText("\n")
	doc.Indent(2)
	b, err := doc.WriteToBytes()
	if err != nil {
		panic(err) // writing a fixed in-memory tree cannot fail
	}
	return b
}
