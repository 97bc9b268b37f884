package facts

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// dataNode is what the sources say about one live DataNode. A negative
// count is one the source does not report.
type dataNode struct {
	name      string
	inService bool  // accepts writes: neither decommissioning nor in maintenance
	remaining int64 // bytes
	blocks    int64
	scheduled int64
	version   string
}

// parseJMX reads the NameNode's /jmx?qry=Hadoop:service=NameNode,name=NameNodeInfo
// response (optionally with the FSNamesystemState bean in the same or a
// merged "beans" array).
//
// NameNodeInfo is the NameNodeMXBean that FSNamesystem implements
// (org.apache.hadoop.hdfs.server.namenode.FSNamesystem, Hadoop 2.10, 3.1,
// 3.3): LiveNodes is a JSON *string* (FSNamesystem.getLiveNodes serialises a
// map with JSON.toString) holding one object per DataNode, keyed
// "host:xferPort", with "adminState" (DatanodeInfo.AdminStates.toString():
// "In Service", "Decommission In Progress", "Decommissioned", "Entering
// Maintenance", "In Maintenance"), "remaining" (bytes), "numBlocks",
// "blockScheduled" (DatanodeDescriptor.getBlocksScheduled) and "version"
// (the DataNode's own software version). SoftwareVersion is the NameNode's.
// The Router's NamenodeBeanMetrics (RBF) serves the same field names.
func parseJMX(data []byte) (*Observation, error) {
	var doc struct {
		Beans []map[string]any `json:"beans"`
	}
	if err := decodeJSON(data, &doc); err != nil {
		return nil, err
	}
	var info, state map[string]any
	for _, b := range doc.Beans {
		name, _ := b["name"].(string)
		switch {
		case strings.HasSuffix(name, "name=NameNodeInfo") || (info == nil && b["LiveNodes"] != nil):
			info = b
		case strings.HasSuffix(name, "name=FSNamesystemState"):
			state = b
		}
	}
	if info == nil {
		return nil, errors.New("no Hadoop:service=NameNode,name=NameNodeInfo bean with LiveNodes: query /jmx?qry=Hadoop:service=NameNode,name=NameNodeInfo")
	}
	live, ok := info["LiveNodes"].(string)
	if !ok {
		return nil, errors.New("NameNodeInfo.LiveNodes is not a string holding a JSON object (FSNamesystem.getLiveNodes)")
	}
	var nodes map[string]map[string]any
	if err := decodeJSON([]byte(live), &nodes); err != nil {
		return nil, fmt.Errorf("NameNodeInfo.LiveNodes: %w", err)
	}
	var dns []dataNode
	for name, n := range nodes {
		d := dataNode{name: name, remaining: -1, blocks: -1, scheduled: -1}
		state, _ := n["adminState"].(string)
		d.inService = state == "In Service"
		if v, ok := whole(n["remaining"]); ok {
			d.remaining = v
		}
		if v, ok := whole(n["numBlocks"]); ok {
			d.blocks = v
		}
		if v, ok := whole(n["blockScheduled"]); ok {
			d.scheduled = v
		}
		d.version, _ = n["version"].(string)
		dns = append(dns, d)
	}
	o := &Observation{Kind: NameNode}
	extra := ""
	if state != nil {
		if n, ok := whole(state["NumLiveDataNodes"]); ok {
			extra = fmt.Sprintf("; FSNamesystemState NumLiveDataNodes %d", n)
			if d, ok := whole(state["NumDecomLiveDataNodes"]); ok {
				extra += fmt.Sprintf(", NumDecomLiveDataNodes %d", d)
			}
		}
	}
	nnVersion, _ := info["SoftwareVersion"].(string)
	if err := capacity(o, dns, "NameNodeInfo.LiveNodes", extra, nnVersion); err != nil {
		return nil, err
	}
	return o, nil
}

// capacity turns the DataNodes into cluster values: the worst DataNode that
// accepts writes (minimum remaining, maximum block count and scheduled
// blocks over in-service nodes), with the distribution in the note.
func capacity(o *Observation, all []dataNode, field, extra, nnVersion string) error {
	sort.Slice(all, func(i, j int) bool { return all[i].name < all[j].name })
	var in []dataNode
	for _, d := range all {
		if d.inService {
			in = append(in, d)
		}
	}
	if len(in) == 0 {
		return fmt.Errorf("%s lists %d live DataNode(s), none in service: no DataNode accepts writes", field, len(all))
	}
	o.Cluster = append(o.Cluster, intValue("datanodes", int64(len(in)),
		fmt.Sprintf("in-service DataNodes of %d live in %s%s", len(all), field, extra)))
	worst := func(attr, what string, get func(dataNode) int64, min bool, format func(int64) string) {
		var xs []int64
		var pick dataNode
		for _, d := range in {
			v := get(d)
			if v < 0 {
				return // the source does not report it for every node
			}
			if len(xs) == 0 || (min && v < get(pick)) || (!min && v > get(pick)) {
				pick = d
			}
			xs = append(xs, v)
		}
		o.Cluster = append(o.Cluster, intValue(attr, get(pick),
			fmt.Sprintf("%s on %s; %s over %d in-service DataNodes", what, pick.name, distribution(xs, format), len(xs))))
	}
	plain := func(n int64) string { return strconv.FormatInt(n, 10) }
	worst("datanode_free_bytes", "least remaining", func(d dataNode) int64 { return d.remaining }, true, HumanBytes)
	worst("datanode_blocks", "most blocks", func(d dataNode) int64 { return d.blocks }, false, plain)
	worst("datanode_blocks_scheduled", "most blocks scheduled", func(d dataNode) int64 { return d.scheduled }, false, plain)

	// The DataNodes' own version: the oldest one running, since a rule
	// must hold on every node a block may land on.
	count := map[string]int{}
	var versions []string
	for _, d := range in {
		if d.version == "" || d.version == "UNKNOWN" {
			continue
		}
		if count[d.version] == 0 {
			versions = append(versions, d.version)
		}
		count[d.version]++
	}
	if len(versions) > 0 {
		slices.SortFunc(versions, compareVersions)
		oldest := versions[0]
		v := versionPrefix().FindString(oldest)
		if v == "" {
			return nil
		}
		var parts []string
		for _, s := range versions {
			parts = append(parts, fmt.Sprintf("%s (%d)", s, count[s]))
		}
		note := "DataNodes run " + strings.Join(parts, ", ")
		if v != oldest {
			note += "; written as " + v
		}
		if nnVersion != "" {
			note += "; NameNode SoftwareVersion " + nnVersion
		}
		o.Cluster = append(o.Cluster, strValue("datanode_hadoop_version", v, note))
	}
	return nil
}

// versionPrefix is the major.minor[.patch] part of a Hadoop build version
// such as "3.3.6" or "3.1.1.7.1.9.0-387" (the form .ckptlint.hcl accepts).
var versionPrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d+\.\d+(\.\d+)?`) })

func compareVersions(a, b string) int {
	pa, pb := strings.FieldsFunc(a, notDigit), strings.FieldsFunc(b, notDigit)
	for i := 0; i < len(pa) && i < len(pb); i++ {
		x, _ := strconv.Atoi(pa[i])
		y, _ := strconv.Atoi(pb[i])
		if x != y {
			return x - y
		}
	}
	if len(pa) != len(pb) {
		return len(pa) - len(pb)
	}
	return strings.Compare(a, b)
}

func notDigit(r rune) bool { return r < '0' || r > '9' }

// looksLikeDFSAdmin recognises `hdfs dfsadmin -report` output.
func looksLikeDFSAdmin(data []byte) bool {
	return bytes.Contains(data, []byte("Configured Capacity:")) &&
		(bytes.Contains(data, []byte("datanodes (")) || bytes.Contains(data, []byte("\nName: ")))
}

// sectionRE matches DFSAdmin.report's section headings, "Live datanodes
// (3):", "Dead datanodes (0):", "Decommissioning datanodes (1):" and, since
// Hadoop 3.0, "Entering maintenance datanodes (0):" / "In maintenance
// datanodes (0):" (printDataNodeReports, Hadoop 2.6.5 to 3.4.1); older
// Hadoop 2 releases print "Live datanodes:" and "Dead datanodes:" without a
// count, after availableRE's summary line.
var sectionRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([A-Za-z ]+) datanodes(?: \((\d+)\))?:\s*$`)
})

// availableRE is the summary line of the older DFSAdmin.report, "Datanodes
// available: 3 (3 total, 0 dead)": the live count, then all and dead.
var availableRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^Datanodes available: (\d+) \((\d+) total, (\d+) dead\)\s*$`)
})

// parseDFSAdmin reads `hdfs dfsadmin -report`: org.apache.hadoop.hdfs.tools.DFSAdmin.report
// prints, per DataNode, DatanodeInfo.getDatanodeReport(): "Name: ip:port
// (host)", "Decommission Status : Normal" (or "Decommission in progress",
// "Decommissioned", and since 3.0 "In maintenance" / "Entering
// maintenance"), "DFS Remaining: <bytes> (<human>)" and, since Hadoop 3.3,
// "Num of Blocks: <n>". It reports neither the DataNode's version nor its
// scheduled blocks: those come from the NameNode JMX source.
func parseDFSAdmin(data []byte) (*Observation, error) {
	var all []dataNode
	var cur *dataNode
	section := ""
	sawLive := false
	// header is the line that counts the live DataNodes, its number and
	// the count it gives; -1 when no line counts them.
	header, headerLine, headerCount := "", 0, -1
	flush := func() {
		if cur != nil {
			all = append(all, *cur)
			cur = nil
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimRight(sc.Text(), "\r")
		if m := availableRE().FindStringSubmatch(t); m != nil {
			header, headerLine = t, line
			headerCount, _ = strconv.Atoi(m[1])
			continue
		}
		if m := sectionRE().FindStringSubmatch(t); m != nil {
			flush()
			section = strings.ToLower(m[1])
			if section == "live" {
				sawLive = true
				if m[2] != "" {
					header, headerLine = t, line
					headerCount, _ = strconv.Atoi(m[2])
				}
			}
			continue
		}
		if section != "live" {
			continue
		}
		key, val, ok := strings.Cut(t, ":")
		if !ok {
			continue
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch key {
		case "Name":
			flush()
			cur = &dataNode{name: firstField(val), remaining: -1, blocks: -1, scheduled: -1, inService: true}
		case "Decommission Status":
			if cur != nil {
				cur.inService = val == "Normal"
			}
		case "DFS Remaining", "Num of Blocks":
			if cur == nil {
				continue
			}
			n, err := strconv.ParseInt(firstField(val), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("line %d: %s %q is not a whole number", line, key, val)
			}
			if key == "DFS Remaining" {
				cur.remaining = n
			} else {
				cur.blocks = n
			}
		}
	}
	flush()
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %v", line+1, err)
	}
	if !sawLive {
		return nil, errors.New(`no "Live datanodes (N):" section: expected the output of hdfs dfsadmin -report`)
	}
	for _, d := range all {
		if d.remaining < 0 {
			return nil, fmt.Errorf("DataNode %s has no \"DFS Remaining\" line (truncated report?)", d.name)
		}
	}
	// The header counts the DataNodes the NameNode reported; fewer sections
	// is a cut report (a pager, a paste), and its facts would describe a
	// cluster of fewer nodes (issue 24: a truncated report wrote datanodes
	// = 1 under a header saying 3).
	if headerCount >= 0 && headerCount != len(all) {
		var names []string
		for _, d := range all {
			names = append(names, d.name)
		}
		listed := "none"
		if len(names) > 0 {
			listed = strings.Join(names, ", ")
		}
		return nil, fmt.Errorf("line %d: the header %q counts %d live DataNodes, but the report lists %d (%s): a truncated or edited report? Pass the whole output of hdfs dfsadmin -report",
			headerLine, header, headerCount, len(all), clip(listed, 200))
	}
	o := &Observation{Kind: DFSAdmin}
	if err := capacity(o, all, "the Live datanodes section", "", ""); err != nil {
		return nil, err
	}
	return o, nil
}

// firstField is the first space-separated word of s, "" when there is none.
func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}
