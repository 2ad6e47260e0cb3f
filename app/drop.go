package app

import "os"

// splitDropped separates dropped regular files (attached to the message)
// from folders and anything else (named in the message as text).
func splitDropped(paths []string) (files, other []string) {
	for _, p := range paths {
		if p == "" {
			continue // a dropped link or text: no local path
		}
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			files = append(files, p)
		} else {
			other = append(other, p)
		}
	}
	return files, other
}
