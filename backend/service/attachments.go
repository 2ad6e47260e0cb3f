package service

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Attachments travel by path (the API's 1 MiB body limit stays); these
// bound what one message may hand the agent.
const (
	MaxAttachments     = 10
	MaxAttachmentBytes = 20 << 20
)

// checkAttachments refuses, in plain words, a path that is not a readable
// regular file or is too large, before anything is recorded.
func checkAttachments(paths []string) error {
	if len(paths) > MaxAttachments {
		return badRequest("at most %d attachments per message", MaxAttachments)
	}
	for _, p := range paths {
		name := filepath.Base(p)
		if p == "" || !filepath.IsAbs(p) {
			return badRequest("attachment %q: give the file's full path", p)
		}
		st, err := os.Stat(p)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return badRequest("cannot attach %s: no such file", name)
		case err != nil:
			return badRequest("cannot attach %s: %s", name, plainOSError(err))
		case !st.Mode().IsRegular():
			return badRequest("cannot attach %s: it is not a file", name)
		case st.Size() > MaxAttachmentBytes:
			return &Error{Code: CodeTooLarge, Message: fmt.Sprintf("%s is %s; an attachment can be at most %d MiB", name, humanSize(st.Size()), MaxAttachmentBytes>>20)}
		}
		f, err := os.Open(p)
		if err != nil {
			return badRequest("cannot attach %s: %s", name, plainOSError(err))
		}
		f.Close()
	}
	return nil
}

func humanSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", n>>10)
}
