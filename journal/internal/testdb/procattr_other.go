//go:build !unix

package testdb

import "os/exec"

// setOwnGroup leaves cmd in the test binary's process group: process
// groups are a Unix notion.
func setOwnGroup(*exec.Cmd) {}

// terminate ends cmd: without process groups, the process itself.
func terminate(cmd *exec.Cmd) { _ = cmd.Process.Kill() }

// killGroup ends cmd.
func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
