package evidence

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"text/scanner"
)

// parsePOM reads a Maven pom.xml with encoding/xml: the properties
// <flink.version> / <hadoop.version> (any spelling versionVar accepts) under
// <project><properties>, and the <version> of a dependency whose groupId
// is org.apache.flink or org.apache.hadoop when it is a literal. DTDs are
// not expanded (encoding/xml never does).
func parsePOM(path string, src []byte) ([]Item, error) {
	d := xml.NewDecoder(bytes.NewReader(src))
	d.Strict = true
	var stack []string
	var text strings.Builder
	var textLine int
	var dep struct {
		group, version string
		line           int
	}
	var items []Item
	for tokens := 0; tokens < 1_000_000; tokens++ {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return items, fmt.Errorf("not read as XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			stack = append(stack, t.Name.Local)
			text.Reset()
			textLine = lineOf(src, d.InputOffset())
			if t.Name.Local == "dependency" {
				dep.group, dep.version = "", ""
			}
		case xml.CharData:
			text.Write(t)
		case xml.EndElement:
			val := strings.TrimSpace(text.String())
			parent := ""
			if len(stack) >= 2 {
				parent = stack[len(stack)-2]
			}
			switch {
			case parent == "properties":
				if p := varProduct(t.Name.Local); p != "" {
					if v := versionPrefix(val); v != "" {
						items = append(items, Item{Product: p, Version: v, Kind: KindBuild,
							What: fmt.Sprintf("<%s>%s</%s> in pom.xml", t.Name.Local, val, t.Name.Local), Path: path, Line: textLine})
					}
				}
			case parent == "dependency" && t.Name.Local == "groupId":
				dep.group = val
			case parent == "dependency" && t.Name.Local == "version":
				dep.version, dep.line = val, textLine
			case t.Name.Local == "dependency":
				p := ""
				switch dep.group {
				case "org.apache.flink":
					p = Flink
				case "org.apache.hadoop":
					p = Hadoop
				}
				if v := versionPrefix(dep.version); p != "" && v != "" {
					items = append(items, Item{Product: p, Version: v, Kind: KindBuild,
						What: fmt.Sprintf("%s dependency version %s in pom.xml", dep.group, dep.version), Path: path, Line: dep.line})
				}
			}
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			text.Reset()
		}
	}
	return items, nil
}

// Gradle build scripts are Groovy or Kotlin programs; ckptlint reads a
// documented subset with Go's text/scanner (no evaluation):
//   - NAME = "x.y.z" / NAME = 'x.y.z' (also after def, val, var, ext.) where
//     NAME is flinkVersion, flink_version, hadoopVersion, … (versionVar);
//   - string literals "org.apache.flink:flink-…:x.y.z" and
//     "org.apache.hadoop:hadoop-…:x.y.z" (dependency notation).
var gradleCoordinate = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^org\.apache\.(flink|hadoop):(?:flink|hadoop)-[\w.-]+:(\d+\.\d+(?:\.\d+)?)`)
})

func parseGradle(path string, src []byte) ([]Item, error) {
	var s scanner.Scanner
	s.Init(bytes.NewReader(src))
	s.Mode = scanner.ScanIdents | scanner.ScanStrings | scanner.ScanRawStrings | scanner.ScanChars |
		scanner.ScanComments | scanner.SkipComments | scanner.ScanInts | scanner.ScanFloats
	s.Error = func(*scanner.Scanner, string) {} // Groovy's 'strings' read as bad char literals; their text is still there
	s.Filename = path
	var items []Item
	prev, prev2 := "", ""
	for tok, n := s.Scan(), 0; tok != scanner.EOF && n < 1_000_000; tok, n = s.Scan(), n+1 {
		text := s.TokenText()
		if tok == scanner.String || tok == scanner.Char || tok == scanner.RawString {
			lit := unquoteGradle(text)
			if prev == "=" {
				if p := varProduct(prev2); p != "" {
					if v := versionPrefix(lit); v != "" {
						items = append(items, Item{Product: p, Version: v, Kind: KindBuild,
							What: fmt.Sprintf("%s = %s in %s", prev2, text, baseName(path)), Path: path, Line: s.Position.Line})
					}
				}
			}
			if m := gradleCoordinate().FindStringSubmatch(lit); m != nil {
				items = append(items, Item{Product: m[1], Version: m[2], Kind: KindBuild,
					What: fmt.Sprintf("dependency %s in %s", lit, baseName(path)), Path: path, Line: s.Position.Line})
			}
		}
		prev2, prev = prev, text
	}
	return items, nil
}

func unquoteGradle(t string) string {
	if len(t) >= 2 {
		switch t[0] {
		case '"', '\'', '`':
			return t[1 : len(t)-1]
		}
	}
	return t
}

// parseGradleProperties reads gradle.properties as Java properties lines
// (key=value or key: value; # and ! comments; no continuations needed for
// a version): flinkVersion=1.17.1, flink.version=1.17.1.
func parseGradleProperties(path string, src []byte) ([]Item, error) {
	var items []Item
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		i := strings.IndexAny(line, "=:")
		if i < 0 {
			continue
		}
		key, val := strings.TrimSpace(line[:i]), strings.TrimSpace(line[i+1:])
		if p := varProduct(key); p != "" {
			if v := versionPrefix(val); v != "" {
				items = append(items, Item{Product: p, Version: v, Kind: KindBuild,
					What: fmt.Sprintf("%s=%s in gradle.properties", key, val), Path: path, Line: n})
			}
		}
	}
	return items, nil
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}
