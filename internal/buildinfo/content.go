package buildinfo

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"debug/macho"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"sync"
)

// Content names the bytes of the running executable: part of the result
// cache's key (docs/cache.md, "What a result depends on"), so that two
// builds with one version string (two development builds, `go run` in a
// checkout with uncommitted changes, which all say "devel" or the same
// "+dirty" pseudo-version) never share an entry (issue 25: a changed rule
// message was served stale).
//
// It is the build ID the go command links into every binary it builds,
// "actionID(binary)/actionID(main.a)/contentID(main.a)/contentID(binary)"
// (cmd/go/internal/work/buildid.go): the first part hashes every input of
// the link (sources, flags, -X values, toolchain), the last the binary's
// own bytes. It is read as `go tool buildid` reads it
// (cmd/internal/buildid): from the ELF note in the first 32 KiB, or the
// "\xff Go build ID: " string at the start of the text segment (Mach-O,
// PE), a read of 32 KiB; "go-buildid:" and the ID. A binary without a build
// ID of that form (linked with -buildid=, or by a build system that writes
// a constant one, as Bazel's rules_go writes "redacted") is named by the
// SHA-256 of its bytes instead, "sha256:" and hex, which costs a read and a
// hash of the whole executable (about 44 MB). "" when the executable
// cannot be read. It is computed once per process.
func Content() string { return content() }

// ContentOf is Content for another executable, the file at path: the
// result cache names the renderer ckptlint would start with it
// (render.Identity). "" when the file cannot be read.
func ContentOf(path string) string { return contentOf(path) }

var content = sync.OnceValue(func() string {
	exe, err := executable()
	if err != nil {
		return ""
	}
	return contentOf(exe)
})

// executable is the file the running program was loaded from. On Linux
// that is /proc/self/exe, which names the running image even when the file
// at its path was replaced since (a `go install` during the run).
func executable() (string, error) {
	if runtime.GOOS == "linux" {
		if _, err := os.Stat("/proc/self/exe"); err == nil {
			return "/proc/self/exe", nil
		}
	}
	return os.Executable()
}

// contentOf is Content for the executable at path.
func contentOf(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	if id, err := readBuildID(f); err == nil && goBuildID.MatchString(id) {
		return "go-buildid:" + id
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return ""
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// goBuildID is the form of the build ID the go command gives a binary:
// four hashes of 20 characters each (cmd/internal/buildid.HashToString).
var goBuildID = regexp.MustCompile(`^[A-Za-z0-9_-]{20}(/[A-Za-z0-9_-]{20}){3}$`)

// readSize is how much of the executable readBuildID reads first, as
// cmd/internal/buildid does.
const readSize = 32 << 10

var (
	elfPrefix     = []byte("\x7fELF")
	machoPrefixes = [][]byte{{0xfe, 0xed, 0xfa, 0xce}, {0xfe, 0xed, 0xfa, 0xcf}, {0xce, 0xfa, 0xed, 0xfe}, {0xcf, 0xfa, 0xed, 0xfe}}
	goBuildPrefix = []byte("\xff Go build ID: \"")
	goBuildEnd    = []byte("\"\n \xff")
	elfGoNote     = []byte("Go\x00\x00")
)

var errNoBuildID = errors.New("no Go build ID")

// readBuildID reads the Go build ID of the executable f, as
// cmd/internal/buildid's readBinary does (without its gccgo cases).
func readBuildID(f *os.File) (string, error) {
	data := make([]byte, readSize)
	n, err := io.ReadFull(f, data)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return "", err
	}
	data = data[:n]
	if bytes.HasPrefix(data, elfPrefix) {
		return readELF(f, data)
	}
	for _, m := range machoPrefixes {
		if bytes.HasPrefix(data, m) {
			return readMacho(f, data)
		}
	}
	return readRaw(data)
}

// readELF finds the build ID in the ELF note of type 4 named "Go" that a
// PT_NOTE program header describes (cmd/internal/buildid/note.go, readELF:
// the note is in the first few KiB, so data holds it; the section headers,
// at the end of the file, are not read).
func readELF(f *os.File, data []byte) (string, error) {
	if len(data) < 64 {
		return "", errNoBuildID
	}
	data = bytes.Clone(data)
	// No section headers: elf.NewFile then reads the program headers alone.
	switch elf.Class(data[elf.EI_CLASS]) {
	case elf.ELFCLASS32:
		clear(data[32:36])
		clear(data[48:50])
	case elf.ELFCLASS64:
		clear(data[40:48])
		clear(data[60:62])
	}
	ef, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		return "", err
	}
	const elfGoBuildIDTag = 4
	for _, p := range ef.Progs {
		if p.Type != elf.PT_NOTE || p.Filesz < 16 || p.Filesz > 1<<20 {
			continue
		}
		var note []byte
		if p.Off+p.Filesz <= uint64(len(data)) {
			note = data[p.Off : p.Off+p.Filesz]
		} else {
			note = make([]byte, p.Filesz)
			if _, err := f.ReadAt(note, int64(p.Off)); err != nil { //nolint:gosec // G115: an offset the file's own header gives; ReadAt fails past its end
				return "", err
			}
		}
		for len(note) >= 16 {
			nameSize := ef.ByteOrder.Uint32(note)
			valSize := ef.ByteOrder.Uint32(note[4:])
			tag := ef.ByteOrder.Uint32(note[8:])
			if nameSize == 4 && uint64(valSize) <= uint64(len(note))-16 && tag == elfGoBuildIDTag && bytes.Equal(note[12:16], elfGoNote) {
				return string(note[16 : 16+valSize]), nil
			}
			// The next note: after this one's name and value, each padded
			// to 4 bytes, and at the segment's alignment.
			size := 12 + (uint64(nameSize)+3)&^3 + (uint64(valSize)+3)&^3
			if a := p.Align; a > 1 && a <= 1<<12 {
				end := p.Off + (p.Filesz - uint64(len(note))) + size
				size += (end+a-1)&^(a-1) - end
			}
			if size >= uint64(len(note)) {
				break
			}
			note = note[size:]
		}
	}
	return "", errNoBuildID
}

// readMacho finds the build ID at the start of the __text section
// (cmd/internal/buildid/note.go, readMacho): in data when the section
// starts within the first 32 KiB, else read from there.
func readMacho(f *os.File, data []byte) (string, error) {
	if id, err := readRaw(data); err == nil {
		return id, nil
	}
	mf, err := macho.NewFile(f)
	if err != nil {
		return "", err
	}
	sect := mf.Section("__text")
	if sect == nil {
		return "", errNoBuildID
	}
	buf := make([]byte, min(sect.Size, readSize))
	if _, err := f.ReadAt(buf, int64(sect.Offset)); err != nil {
		return "", err
	}
	return readRaw(buf)
}

// readRaw finds the build ID the linker writes at the start of the text
// segment: "\xff Go build ID: " and the quoted ID (cmd/link's textbuildid).
func readRaw(data []byte) (string, error) {
	i := bytes.Index(data, goBuildPrefix)
	if i < 0 {
		return "", errNoBuildID
	}
	j := bytes.Index(data[i+len(goBuildPrefix):], goBuildEnd)
	if j < 0 {
		return "", errNoBuildID
	}
	return strconv.Unquote(string(data[i+len(goBuildPrefix)-1 : i+len(goBuildPrefix)+j+1]))
}
