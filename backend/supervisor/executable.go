package supervisor

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/hermesdesk/hermesdesk/backend/version"
)

// versionedCopy returns a copy of exe under <datadir>/bin/ named by version
// and content hash, making it if needed. Shims run from it, so replacing or
// unmounting the installed binary (a deb upgrade, an AppImage) never
// breaks a live shim (docs/ARCHITECTURE.md §Durability). A hard link is enough when possible:
// upgrades replace the installed file by rename, leaving our inode intact.
func versionedCopy(dataDir, exe string) (string, error) {
	sum, err := version.ProgramSum(exe)
	if err != nil {
		return "", fmt.Errorf("hash %s: %w", exe, err)
	}
	dir := filepath.Join(dataDir, "bin")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	dst := filepath.Join(dir, "hermesdesk-"+safeName(version.Version)+"-"+sum[:12])
	if st, err := os.Stat(dst); err == nil && st.Mode().IsRegular() {
		return dst, nil
	}
	tmp := fmt.Sprintf("%s.tmp%d", dst, os.Getpid())
	os.Remove(tmp)
	if err := os.Link(exe, tmp); err != nil {
		if err := copyFile(exe, tmp); err != nil {
			os.Remove(tmp)
			return "", fmt.Errorf("copy %s: %w", exe, err)
		}
	}
	if err := os.Rename(tmp, dst); err != nil {
		os.Remove(tmp)
		return "", err
	}
	return dst, nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o700)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// safeName keeps a version string usable in a file name.
func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "dev"
	}
	return string(b)
}
