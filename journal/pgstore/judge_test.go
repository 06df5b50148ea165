package pgstore

import (
	"errors"
	"testing"
)

// TestJudgeReplication: Open refuses a primary only when its commits may
// be acknowledged without a standby a failover could promote having them;
// a synchronous standby that is attaching (it shows sync_state 'async'
// until it reports a flush position) is no reason to refuse.
func TestJudgeReplication(t *testing.T) {
	t.Parallel()
	const names = "standby"
	for _, tc := range []struct {
		name      string
		r         replication
		refused   bool
		attaching bool
	}{
		{"no standby attached", replication{names: "", commit: "on"}, false, false},
		{"asynchronous standbys only", replication{standbys: 2, names: "", commit: "on"}, true, false},
		{"a blank setting", replication{standbys: 1, names: "  ", commit: "on"}, true, false},
		{"a synchronous standby", replication{standbys: 1, named: 1, names: names, commit: "on"}, false, false},
		{"remote_apply", replication{standbys: 1, named: 1, names: names, commit: "remote_apply"}, false, false},
		{"remote_write", replication{standbys: 1, named: 1, names: names, commit: "remote_write"}, false, false},
		{"synchronous_commit local", replication{standbys: 1, named: 1, names: names, commit: "local"}, true, false},
		{"synchronous_commit off", replication{standbys: 1, named: 1, names: names, commit: "off"}, true, false},
		{"standbys this role cannot see", replication{standbys: 1, hidden: 1, names: names, commit: "on"}, false, false},
		{"the synchronous standby attaching", replication{standbys: 1, attaching: 1, names: names, commit: "on"}, false, true},
		{"an attaching standby beside an asynchronous one", replication{standbys: 2, attaching: 1, names: names, commit: "on"}, false, true},
		{"no attached standby named", replication{standbys: 2, names: names, commit: "on"}, true, false},
		{"attaching, but commits do not wait", replication{standbys: 1, attaching: 1, names: names, commit: "local"}, true, false},
	} {
		refusal, attaching := tc.r.judge()
		if (refusal != nil) != tc.refused || attaching != tc.attaching {
			t.Errorf("%s: refusal %v, attaching %v; want refused %v, attaching %v", tc.name, refusal, attaching, tc.refused, tc.attaching)
		}
		if refusal != nil && !errors.Is(refusal, ErrAsyncReplication) {
			t.Errorf("%s: %v does not match ErrAsyncReplication", tc.name, refusal)
		}
	}
}
