package app

import (
	"bytes"
	"io"
	"io/fs"
	"time"
)

// themedFS serves the frontend with the saved app theme already on <html>
// (data-theme="dark"|"light"|"system"), so the page's first paint, before
// any script runs, uses that theme's colours rather than the desktop's,
// and the frontend takes it as the preference (frontend/src/app/theme.ts;
// docs/ARCHITECTURE.md §Window state). No script is added: the page's CSP
// stays as it is. With no saved theme the files are served untouched.
type themedFS struct {
	fs.FS
	theme string
}

func withTheme(fsys fs.FS, theme string) fs.FS {
	if theme != ThemeDark && theme != ThemeLight && theme != ThemeSystem {
		return fsys
	}
	return themedFS{FS: fsys, theme: theme}
}

func (t themedFS) Open(name string) (fs.File, error) {
	f, err := t.FS.Open(name)
	if err != nil || name != "index.html" {
		return f, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	b = themeHTML(b, t.theme)
	return &memFile{Reader: bytes.NewReader(b), info: memInfo{name: st.Name(), size: int64(len(b)), mod: st.ModTime()}}, nil
}

// themeHTML adds data-theme to the first <html …> tag; a page that has
// one already, or no <html> tag, is returned as it is.
func themeHTML(page []byte, theme string) []byte {
	i := bytes.Index(page, []byte("<html"))
	if i < 0 {
		return page
	}
	end := bytes.IndexByte(page[i:], '>')
	if end < 0 || bytes.Contains(page[i:i+end], []byte("data-theme")) {
		return page
	}
	at := i + len("<html")
	out := make([]byte, 0, len(page)+32)
	out = append(out, page[:at]...)
	out = append(out, ` data-theme="`+theme+`"`...)
	return append(out, page[at:]...)
}

type memFile struct {
	*bytes.Reader
	info memInfo
}

func (m *memFile) Stat() (fs.FileInfo, error) { return m.info, nil }
func (m *memFile) Close() error               { return nil }

type memInfo struct {
	name string
	size int64
	mod  time.Time
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return i.mod }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }
