package evidence

import (
	"strings"

	"github.com/ckptlint/ckptlint/internal/deploy/dockerfile"
)

// parseDockerfile reads a Dockerfile with the one Dockerfile reader,
// internal/deploy/dockerfile (BuildKit's parser): every stage's FROM image
// (after substituting the ARGs declared before the first FROM) is image
// evidence; FLINK_VERSION-style ARG and ENV, and the distribution
// archives ARG, ENV, ADD and RUN name (RUN read as a shell script, with
// the stage's ARG and ENV expanded) are script evidence. The Hadoop
// version a jar's name states (flink-shaded-hadoop-2-uber-2.8.3-10.0.jar)
// is the image's (deploy.Build), not evidence here.
func parseDockerfile(path string, src []byte) ([]Item, error) {
	f := dockerfile.Parse(path, src, "")
	var items []Item
	if len(f.Notes) > 0 && len(f.Stages) == 0 {
		if strings.Contains(f.Notes[0], "file with no instructions") {
			return nil, nil // an empty Dockerfile states nothing
		}
		return nil, notReadError(f.Notes[0])
	}
	items = append(items, scriptItems(path, f.Versions)...)
	for _, st := range f.Stages {
		if it, ok := imageItem(path, st.Loc.Line, st.From); ok {
			items = append(items, it)
		}
		for _, v := range st.Versions {
			if !strings.HasPrefix(v.What, "jar ") {
				items = append(items, Item{Product: v.Product, Version: v.Version, Kind: KindScript, What: v.What, Path: path, Line: v.Loc.Line})
			}
		}
	}
	return items, nil
}

// notReadError is a note of the Dockerfile reader as the error of a
// skipped file (its reason, without the file name the Note names).
type notReadError string

func (e notReadError) Error() string {
	s := string(e)
	if i := strings.Index(s, ": not read"); i >= 0 {
		return s[i+2:]
	}
	return s
}
