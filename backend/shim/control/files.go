// Package control is what a shim and its supervisor share: the files in a
// run's directory (spec, bootstrap, lock, log), the JSON-lines control
// protocol spoken on the shim's unix socket, and a client for it.
//
// It is deliberately free of the journal and of adapters so the supervisor
// (and a CLI) can talk to shims without pulling the shim's whole runtime in.
package control

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// ProtocolVersion is the control protocol this build speaks. Bump it only
// with a compatible reader for the previous one: shims of an older binary may
// be alive when a newer main starts (docs/ARCHITECTURE.md §Journal).
const ProtocolVersion = 1

// Names of the files in a run's directory, <datadir>/runs/<run_id>/.
const (
	SpecFile      = "spec.json"
	BootstrapFile = "bootstrap.json"
	LockFile      = "lock"
	LogFile       = "shim.log"
	// ExitNoteFile is left by a shim that could not write its run's
	// terminal event (ExitNote).
	ExitNoteFile = "exit.json"
)

// ExitNote is why a shim gave up on its run without writing the terminal
// event (the journal failed, the disk filled): the supervisor that closes
// the run then gives that reason, not "ended unexpectedly".
type ExitNote struct {
	// Message is safe to show people.
	Message string        `json:"message"`
	Code    run.ErrorCode `json:"code,omitempty"`
}

// WriteExitNote leaves n in the run's directory (best effort: on a full
// disk it may fail too, and the supervisor falls back on what it sees).
func WriteExitNote(dataDir, runID string, n ExitNote) error {
	return WriteJSONAtomic(filepath.Join(RunDir(dataDir, runID), ExitNoteFile), n)
}

// ReadExitNote reads the run's exit note, if its shim left one.
func ReadExitNote(dataDir, runID string) (ExitNote, error) {
	var n ExitNote
	err := readJSON(filepath.Join(RunDir(dataDir, runID), ExitNoteFile), &n)
	return n, err
}

// ExitOwned is the exit code of a shim that found its run owned by another
// shim (it did nothing); its supervisor follows that other shim instead.
const ExitOwned = 3

// ErrNoBootstrap: the shim has not written its bootstrap file (yet).
var ErrNoBootstrap = errors.New("control: no bootstrap file")

// RunDir is where a run's spec, lock, bootstrap and log live.
func RunDir(dataDir, runID string) string {
	return filepath.Join(dataDir, "runs", runID)
}

// Spec is everything a shim needs to serve one run, written 0600 by the
// supervisor. It may carry an API key (Config.APIKey), hence the mode.
type Spec struct {
	RunID           string         `json:"run_id"`
	SessionID       string         `json:"session_id"`
	TurnID          string         `json:"turn_id,omitempty"`
	UserMessageID   string         `json:"user_message_id,omitempty"`
	Agent           string         `json:"agent"`
	Config          adapter.Config `json:"config"`
	Workspace       string         `json:"workspace"`
	Message         string         `json:"message"`
	Attachments     []string       `json:"attachments,omitempty"`
	Model           string         `json:"model,omitempty"`
	Profile         string         `json:"profile,omitempty"`
	NativeSessionID string         `json:"native_session_id,omitempty"`
	// Fork: the agent starts as a fork of its own session where it can
	// (docs/ARCHITECTURE.md §Checkpoints, native forks); where it cannot,
	// HandoverMessage (the conversation ahead of Message) is given instead.
	Fork            *run.NativeFork `json:"fork,omitempty"`
	HandoverMessage string          `json:"handover_message,omitempty"`
	DataDir         string          `json:"data_dir"`
	DBPath          string          `json:"db_path"`

	// SessionConfig is the session's kept choices of the agent's settings
	// (option id → value), applied before the prompt (docs/ARCHITECTURE.md
	// §Session config options).
	SessionConfig map[string]string `json:"session_config,omitempty"`

	// CancelGraceMs is the wait between SIGTERM and SIGKILL on cancel.
	CancelGraceMs int64 `json:"cancel_grace_ms,omitempty"`
	// WarmIdleMs is how long the shim stays warm after a run for the
	// session's next one: 0 takes DefaultWarmIdle, negative never.
	WarmIdleMs int64 `json:"warm_idle_ms,omitempty"`
	// MaxOutputBytes caps the output text the run stores (answer,
	// reasoning, tool output): beyond it the shim keeps the head and the
	// answer's tail and says what was cut. 0 takes DefaultMaxOutput.
	MaxOutputBytes int64 `json:"max_output_bytes,omitempty"`
	// NoPark: a run stopped by its vendor's rate limit fails instead of
	// parking until the quota resets (the park_rate_limited_runs setting
	// off; docs/ARCHITECTURE.md §Usage, parked runs).
	NoPark bool `json:"no_park,omitempty"`
	// NoCheckpoint: the person turned checkpoints off (checkpoints.enabled
	// false); CheckpointMaxFileBytes: files above it are noted, not kept
	// (0: the 50 MiB default). docs/ARCHITECTURE.md §Checkpoints.
	NoCheckpoint           bool  `json:"no_checkpoint,omitempty"`
	CheckpointMaxFileBytes int64 `json:"checkpoint_max_file_bytes,omitempty"`
	// CreatedAt helps a person reading the directory; nothing branches on it.
	CreatedAt time.Time `json:"created_at"`
}

// DefaultMaxOutput is a run's stored output cap unless configured: far
// beyond any real answer, small enough that the window shows it at once.
const DefaultMaxOutput = 4 << 20

// MaxOutput is the run's output cap in bytes.
func (s Spec) MaxOutput() int64 {
	if s.MaxOutputBytes <= 0 {
		return DefaultMaxOutput
	}
	return s.MaxOutputBytes
}

// CancelGrace returns the grace period, defaulting to 5 s (docs/ARCHITECTURE.md §API).
func (s Spec) CancelGrace() time.Duration {
	if s.CancelGraceMs <= 0 {
		return run.DefaultCancelGrace
	}
	return time.Duration(s.CancelGraceMs) * time.Millisecond
}

// Validate reports a spec that cannot be served.
func (s Spec) Validate() error {
	switch {
	case s.RunID == "":
		return errors.New("spec: run_id is empty")
	case s.SessionID == "":
		return errors.New("spec: session_id is empty")
	case s.Agent == "":
		return errors.New("spec: agent is empty")
	case s.DataDir == "" || !filepath.IsAbs(s.DataDir):
		return errors.New("spec: data_dir must be an absolute path")
	case s.DBPath == "":
		return errors.New("spec: db_path is empty")
	}
	return nil
}

// Bootstrap is what a live shim publishes about itself, written atomically
// (0600) once its control socket listens, and again once the agent has a pid.
type Bootstrap struct {
	ProtocolVersion int       `json:"protocol_version"`
	RunID           string    `json:"run_id"`
	Pid             int       `json:"pid"`
	StartTime       time.Time `json:"start_time"`
	Socket          string    `json:"socket"`
	Token           string    `json:"token"`
	// AgentPid is also the agent's process group id (0 until spawned). A
	// supervisor that fences a dead shim kills this group.
	AgentPid int `json:"agent_pid,omitempty"`
}

// WriteJSONAtomic writes v to path with mode 0600 through a temp file and a
// rename, so a reader sees the old file or the new one, never half of one.
func WriteJSONAtomic(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", filepath.Base(path), err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	_, werr := f.Write(append(data, '\n'))
	// CreateTemp already makes 0600 files; Chmod states the intent.
	cerr := f.Chmod(0o600)
	serr := f.Sync()
	clerr := f.Close()
	if err := errors.Join(werr, cerr, serr, clerr); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("parse %s: %w", path, err)
	}
	return nil
}

// WriteSpec writes spec into its run directory, creating it (0700).
func WriteSpec(spec Spec) (string, error) {
	if err := spec.Validate(); err != nil {
		return "", err
	}
	dir := RunDir(spec.DataDir, spec.RunID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create run dir: %w", err)
	}
	path := filepath.Join(dir, SpecFile)
	return path, WriteJSONAtomic(path, spec)
}

// RemoveSpec deletes a run's spec once the run has ended: it holds the
// user's message as typed (secrets included: the transcript keeps only the
// redacted text) and the agent's settings, keys included, which nothing
// needs after the end (docs/ARCHITECTURE.md §Security, secrets). A missing
// spec is not an error.
func RemoveSpec(dataDir, runID string) error {
	err := os.Remove(filepath.Join(RunDir(dataDir, runID), SpecFile))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove spec: %w", err)
	}
	return nil
}

// ReadSpec reads and validates a spec file.
func ReadSpec(path string) (Spec, error) {
	var s Spec
	if err := readJSON(path, &s); err != nil {
		return Spec{}, fmt.Errorf("read spec: %w", err)
	}
	return s, s.Validate()
}

// ReadBootstrap reads a run's bootstrap file; ErrNoBootstrap if absent.
func ReadBootstrap(dataDir, runID string) (Bootstrap, error) {
	var b Bootstrap
	err := readJSON(filepath.Join(RunDir(dataDir, runID), BootstrapFile), &b)
	if errors.Is(err, os.ErrNotExist) {
		return Bootstrap{}, fmt.Errorf("run %s: %w", runID, ErrNoBootstrap)
	}
	if err != nil {
		return Bootstrap{}, fmt.Errorf("read bootstrap: %w", err)
	}
	return b, nil
}

// NewToken returns 32 random bytes, hex-encoded.
func NewToken() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("token: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// TailFile returns up to max bytes from the end of path, starting at a line
// boundary where one is near: the reason shown when a shim died.
func TailFile(path string, max int64) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return ""
	}
	off := st.Size() - max
	if off < 0 {
		off = 0
	}
	buf := make([]byte, st.Size()-off)
	n, _ := f.ReadAt(buf, off)
	buf = buf[:n]
	if off > 0 {
		for i, c := range buf {
			if c == '\n' {
				buf = buf[i+1:]
				break
			}
		}
	}
	return string(buf)
}
