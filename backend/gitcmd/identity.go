package gitcmd

// Identity is the author and committer of a commit Hermes Desk writes
// itself (a workspace's snapshot, a checkpoint, the conflict radar's
// state), as Cmd.Env: git reads no config of the person's here (HOME
// points nowhere), so it knows no name of its own.
func Identity(email string) []string {
	return []string{
		"GIT_AUTHOR_NAME=Hermes Desk", "GIT_AUTHOR_EMAIL=" + email,
		"GIT_COMMITTER_NAME=Hermes Desk", "GIT_COMMITTER_EMAIL=" + email,
	}
}
