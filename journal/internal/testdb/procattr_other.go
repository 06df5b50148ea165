//go:build !unix

package testdb

import "os/exec"

// setOwnGroup leaves cmd in the test binary's process group: process
// groups are a Unix notion.
func setOwnGroup(*exec.Cmd) {}
