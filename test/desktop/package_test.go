//go:build desktoptest

package desktop

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstallAndPackage: make install/uninstall and make package on the
// built binary, into temp dirs.
func TestInstallAndPackage(t *testing.T) {
	bin := binPath(t)
	root := "../.."
	prefix := t.TempDir()
	run := func(env []string, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		return string(out)
	}
	home := t.TempDir()
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config")}

	run(env, "scripts/install.sh", "install", prefix, bin)
	launcher := filepath.Join(prefix, "share", "applications", "hermesdesk.desktop")
	body, err := os.ReadFile(launcher)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(body), "Exec="+prefix+"/bin/hermesdesk %U\n") {
		t.Errorf("launcher Exec is not the installed binary:\n%s", body)
	}
	for _, f := range []string{"bin/hermesdesk", "bin/hermesdesk-window", "share/icons/hicolor/256x256/apps/hermesdesk.png",
		"share/icons/hicolor/scalable/apps/hermesdesk.svg"} {
		if _, err := os.Stat(filepath.Join(prefix, f)); err != nil {
			t.Error(err)
		}
	}
	// A login entry pointing at the installed binary goes with it.
	autostart := filepath.Join(home, ".config", "autostart", "hermesdesk.desktop")
	os.MkdirAll(filepath.Dir(autostart), 0o755)
	os.WriteFile(autostart, []byte("[Desktop Entry]\nExec="+prefix+"/bin/hermesdesk --background\n"), 0o644)
	run(env, "scripts/install.sh", "uninstall", prefix)
	for _, f := range []string{launcher, filepath.Join(prefix, "bin", "hermesdesk"), filepath.Join(prefix, "bin", "hermesdesk-window"), autostart} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("%s left after uninstall", f)
		}
	}

	out := t.TempDir()
	run([]string{"OUT=" + out, "DEB_COMPRESS=gzip"}, "scripts/package.sh", "9.9.9", bin)
	debs, _ := filepath.Glob(filepath.Join(out, "hermesdesk_9.9.9_*.deb"))
	tars, _ := filepath.Glob(filepath.Join(out, "hermesdesk-9.9.9-linux-*.tar.gz"))
	if len(debs) != 1 || len(tars) != 1 {
		t.Fatalf("packages: %v %v", debs, tars)
	}
	if dep := run(nil, "dpkg-deb", "-f", debs[0], "Depends"); !strings.Contains(dep, "libwebkit2gtk-4.1-0") ||
		!strings.Contains(dep, "libgtk-3-0") {
		t.Errorf("Depends = %q", dep)
	}
	listing := run(nil, "dpkg-deb", "-c", debs[0])
	for _, f := range []string{"./usr/bin/hermesdesk", "./usr/bin/hermesdesk-window", "./usr/share/applications/hermesdesk.desktop",
		"./usr/share/icons/hicolor/64x64/apps/hermesdesk.png"} {
		if !strings.Contains(listing, f) {
			t.Errorf("deb lacks %s", f)
		}
	}
	if l := run(nil, "tar", "tzf", tars[0]); !strings.Contains(l, "hermesdesk-9.9.9-linux-") || !strings.Contains(l, "/usr/bin/hermesdesk\n") ||
		!strings.Contains(l, "/usr/bin/hermesdesk-window\n") {
		t.Errorf("tarball:\n%s", l)
	}
}
