package demoagent

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/hermesdesk/hermesdesk/backend/paths"
)

// The demo agent keeps its sessions so a later process can session/load
// them (resume): in demo-agent/ in the user's data dir (paths.DataDir),
// never a shared folder of the temp dir that every user would fight over
// and anyone could create first.

// StateDirName is the state folder's name inside the data dir.
const StateDirName = "demo-agent"

// session is what the demo agent remembers of a conversation.
type session struct {
	ID    string `json:"id"`
	Cwd   string `json:"cwd"`
	Model string `json:"model,omitempty"`
	// Config is the session's other settings (Options.ConfigOptions).
	Config configState `json:"config,omitempty"`
	Turns  []turn      `json:"turns"`
	// AlwaysAllowed are the actions answered "Always allow" (an
	// allow_always option) in this conversation: asked again, they are
	// allowed without a question, as a real agent remembers them
	// (issue 23.17). Keyed by permissionKey.
	AlwaysAllowed []string `json:"always_allowed,omitempty"`
	// LimitedUntil (unix ms) ends the rate-limit window a rate_limit step
	// opened in this conversation.
	LimitedUntil int64 `json:"limited_until,omitempty"`
}

type turn struct {
	Prompt string `json:"prompt"`
	Reply  string `json:"reply"`
}

type store struct{ dir string }

// newStore keeps sessions in dir, or in the data dir when dir is empty.
func newStore(dir string) store {
	if dir == "" {
		if data, err := paths.DataDir(); err == nil {
			dir = filepath.Join(data, StateDirName)
		}
	}
	return store{dir: dir}
}

var errNoSession = errors.New("no such session")

// Session ids are generated here; anything else is refused before it can
// become a path.
var validID = regexp.MustCompile(`^fake-[0-9a-f]{16}$`)

func newSessionID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "fake-" + hex.EncodeToString(b[:])
}

func (s store) load(id string) (*session, error) {
	if !validID.MatchString(id) {
		return nil, fmt.Errorf("%w: %q", errNoSession, id)
	}
	b, err := os.ReadFile(filepath.Join(s.dir, id+".json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: %q", errNoSession, id)
	}
	if err != nil {
		return nil, err
	}
	var sess session
	if err := json.Unmarshal(b, &sess); err != nil {
		return nil, fmt.Errorf("session %s: %w", id, err)
	}
	return &sess, nil
}

// save writes atomically: a crash mid-write never leaves a torn session.
func (s store) save(sess *session) error {
	if s.dir == "" {
		return errors.New("no data dir to keep the demo agent's sessions in")
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(sess, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(s.dir, sess.ID+".*.tmp")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(s.dir, sess.ID+".json"))
}
