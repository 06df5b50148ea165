// Package journal makes creates of omni requests and delivery orders happen
// at most once per external reference number across retries, restarts and
// replicas, and says which ones may have happened without a response.
//
// The platform has no idempotency keys and no lookup by reference, so a
// create whose response is lost (a 500, a cut connection, a crash) cannot be
// told from one that never happened, and sending it again may create a
// second delivery. The SDK never sends such a write twice itself; the
// journal extends that promise from one call to a deployment. Before
// sending, it claims the (interface, external_reference_number) key in a
// [Store] shared by every process; a key already claimed is never sent again:
//
//   - known created: the create returns the created resource, read back
//     by the id the journal recorded, without sending;
//   - in flight elsewhere, or of unknown outcome: the create returns a
//     [*ClaimedError], which matches [ErrClaimed] and
//     rxdelivery.ErrUnknownOutcome and carries the claim (and [ErrInFlight]
//     when another create holds it: retry after its lease).
//
// After the call, the journal records the id on success, releases the claim
// when the response proves nothing was created (invalid params, a 4xx, 429 or
// 503 answered before acting, a request that never left the process), and
// marks it unknown otherwise. A claim whose holder died mid-call becomes
// unknown when its lease ends, never free: the create may have left the
// process. Unknown claims wait for an operator: [Journal.Unknown] lists them, and
// after reconciling with the platform Orders.Resolve (or Requests.Resolve)
// records the id found, once the platform shows that it carries the
// reference, or [Journal.Free] removes the claim so the next create is sent;
// Orders.Unresolve undoes a wrong record (the operator command
// 'rxdelivery journal', in the repository's cmd/rxdelivery, does it all
// from a shell).
//
//	store, err := sqlitestore.Open("journal.db") // or pgstore.Open for replicas
//	if err != nil {
//		return err
//	}
//	j := journal.New(store)
//	order, err := j.Orders(client.Orders).Create(ctx, params)
//	switch {
//	case errors.Is(err, journal.ErrInFlight):
//		// Not sent: another create holds it; retry after its lease.
//	case errors.Is(err, journal.ErrClaimed):
//		// Not sent: waiting for an operator.
//	case errors.Is(err, rxdelivery.ErrUnknownOutcome):
//		// Sent, no response: the claim is unknown until an operator settles it.
//	}
//
// Stores: [MemoryStore] (tests, one process), sqlitestore (an embedded file,
// the processes of one host; pure Go, no cgo) and pgstore (PostgreSQL, any
// number of replicas). Correctness rests on the store alone, one claim per
// key and atomic conditional changes, never on locks in the processes. The
// journal is a module of its own, so a program that does not import it
// downloads no database driver.
//
// A create returns at most [SettleMargin] after its context ends: the
// journal writes the outcome (and removes a claim whose insert failed)
// past the end of the context, but not longer, even when the store stalls
// (a synchronous standby that stopped answering). A claim it could not
// settle in time stays in flight until its lease ends and then reads
// unknown, for the runbook; the error says so.
//
// A lease is stamped and judged on the store's clock (the PostgreSQL
// server's, the SQLite host's, the process's for MemoryStore), never on
// the clocks of the replicas reading it, which may disagree.
//
// Errors and renderings of a Key or a Claim (%v, %+v, %#v, %q) never show
// the reference, which may be a medical record number: it is in
// [Key.Reference] and [ClaimedError.Claim] for code. [WithLogger] writes the
// journal's events (claims, releases, unknown outcomes, lease expiries,
// takeovers) without it unless [WithReferencesInLogs] asks for it.
//
// [Journal.Once] gives tracking notifications the same protection: wrapped
// around a tracking.NewHandler callback, it lets each (tracking number,
// status, status_occurred_at) reach the callback once across replicas.
// [Journal.TrackingHandler] also orders them: a tracking number's
// notifications reach the callback one at a time across replicas, the
// calls that succeed in increasing status_occurred_at, the stale ones acknowledged without it
// (marks in the store, one conditional write per notification; see
// [MarkStore]). [Journal.Marks] gives tracking.WithOrdering the same marks
// without Once.
//
// Creating exactly once with a journal is told in
// https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/exactly-once.md
// and running it behind poolers, across failovers and deploys in
// https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/operations.md
package journal
