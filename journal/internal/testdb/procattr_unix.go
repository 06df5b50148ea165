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

// terminate sends SIGTERM to cmd's process group (cmd started with
// setOwnGroup): the program and, when it runs under runuser, runuser too.
func terminate(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }

// killGroup sends SIGKILL to cmd's process group.
func killGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
