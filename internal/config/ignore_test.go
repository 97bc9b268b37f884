package config

import "testing"

func TestIgnored(t *testing.T) {
	cfg := &Config{Ignore: []string{"legacy/**", "**/test/**", "tmp", "*.bak", "jobs/*/old/flink-conf.yaml", "/anchored/x"}}
	tests := []struct {
		name string
		rel  string
		want bool
	}{
		{"below double-star dir", "legacy/flink-conf.yaml", true},
		{"deep below double-star dir", "legacy/a/b/hdfs-site.xml", true},
		{"the double-star dir itself", "legacy", true},
		{"prefix is not a parent", "legacy2/flink-conf.yaml", false},
		{"leading double star at top", "test/flink-conf.yaml", true},
		{"leading double star deep", "a/b/test/c/core-site.xml", true},
		{"double star needs the segment", "a/testing/x.yaml", false},
		{"plain dir ignores its contents", "tmp/x/y.yaml", true},
		{"plain name is anchored", "a/tmp/y.yaml", false},
		{"star in last segment", "x.bak", true},
		{"star does not cross slash", "a/x.bak", false},
		{"star in middle segment", "jobs/etl/old/flink-conf.yaml", true},
		{"star matches one segment only", "jobs/etl/v1/old/flink-conf.yaml", false},
		{"leading slash in pattern is anchored", "anchored/x", true},
		{"dot slash prefix", "./legacy/a.yaml", true},
		{"unclean path", "a/../legacy/a.yaml", true},
		{"outside the directory", "../legacy/a.yaml", false},
		{"the directory itself", ".", false},
		{"not matched", "jobs/etl/flink-conf.yaml", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cfg.Ignored(tt.rel); got != tt.want {
				t.Errorf("Ignored(%q) = %v, want %v", tt.rel, got, tt.want)
			}
		})
	}
}

func TestMatchSegments(t *testing.T) {
	tests := []struct {
		name string
		pat  []string
		segs []string
		want bool
	}{
		{"empty both", nil, nil, true},
		{"double star matches nothing", []string{"**"}, nil, true},
		{"double star matches many", []string{"**"}, []string{"a", "b", "c"}, true},
		{"two double stars", []string{"**", "x", "**", "y"}, []string{"a", "x", "b", "c", "y"}, true},
		{"two double stars miss", []string{"**", "x", "**", "y"}, []string{"a", "y", "x"}, false},
		{"class", []string{"[a-c]?"}, []string{"b1"}, true},
		{"pattern longer", []string{"a", "b"}, []string{"a"}, false},
		{"path longer", []string{"a"}, []string{"a", "b"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := matchSegments(tt.pat, tt.segs); got != tt.want {
				t.Errorf("matchSegments(%q, %q) = %v, want %v", tt.pat, tt.segs, got, tt.want)
			}
		})
	}
}
