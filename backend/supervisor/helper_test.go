package supervisor_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
)

// The test binary doubles as a stand-alone supervisor process ("main"), so
// a test can kill -9 it for real: with helperEnv set, TestMain runs
// helperMain instead of the tests.
const helperEnv = "HD_SUPERVISOR_HELPER"

// helperMain opens the journal and a supervisor on HD_HELPER_DATADIR,
// starts one run per "session|message" line of HD_HELPER_RUNS, prints
// "run <id>" for each, then "ready", and waits to be killed.
func helperMain() int {
	dataDir := os.Getenv("HD_HELPER_DATADIR")
	dbPath := filepath.Join(dataDir, "hermesdesk.db")
	store, err := journal.Open(dbPath, journal.Options{})
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	sup, err := supervisor.New(supervisor.Config{
		DataDir: dataDir, DBPath: dbPath, Store: store,
		Executable: os.Getenv("HD_HELPER_BIN"), MaxConcurrent: 16,
	})
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	if err := sup.Recover(context.Background()); err != nil {
		fmt.Println("error", err)
		return 1
	}
	for i, line := range strings.Split(os.Getenv("HD_HELPER_RUNS"), "\n") {
		ses, msg, _ := strings.Cut(line, "|")
		res, err := sup.Start(context.Background(), run.StartRequest{SessionID: ses, Message: msg, ClientRequestID: fmt.Sprintf("helper-%d", i)})
		if err != nil {
			fmt.Println("error", err)
			return 1
		}
		fmt.Println("run", res.RunID)
	}
	fmt.Println("ready")
	select {} // until killed
}

// startHelper runs a supervisor in a child process and returns it with the
// ids of the runs it started.
func (e *env) startHelper(runs []string) (*exec.Cmd, []string) {
	e.t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=1", "HD_HELPER_DATADIR="+e.dataDir,
		"HD_HELPER_BIN="+testBin, "HD_HELPER_RUNS="+strings.Join(runs, "\n"))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	var ids []string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 2 && f[0] == "run":
			ids = append(ids, f[1])
		case len(f) == 1 && f[0] == "ready":
			go func() { // keep draining so the helper never blocks on stdout
				for sc.Scan() {
				}
			}()
			return cmd, ids
		default:
			e.t.Fatalf("helper: %s", sc.Text())
		}
	}
	e.t.Fatalf("helper exited before it was ready: %v", sc.Err())
	return nil, nil
}

func kill9(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
}
