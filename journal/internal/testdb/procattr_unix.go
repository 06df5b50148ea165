//go:build unix

package testdb

import (
	"os/exec"
	"syscall"
)

// setOwnGroup starts cmd in a process group of its own, so that a signal
// sent to the terminal's group (Ctrl-C) ends the test binary, whose end
// the watchdog sees, and not the watchdog itself.
func setOwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
