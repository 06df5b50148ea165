package main

import (
	"errors"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/spf13/cobra"
)

// requestKind is what the commands requests share with orders know of
// omni requests.
var requestKind = kind[requests.CreateParams, requests.Request]{
	noun:    "request",
	iface:   journal.InterfaceOmni,
	service: func(c *rxdelivery.Client) deliveryService[requests.CreateParams, requests.Request] { return c.Requests },
	journaled: func(j *journal.Journal, c *rxdelivery.Client) creator[requests.CreateParams, requests.Request] {
		return j.Requests(c.Requests)
	},
	validate:  requestValidate,
	reference: func(p *requests.CreateParams) string { return p.ExternalReferenceNumber },
	sentReference: func(r *requests.Request, ref string) {
		if r.ExternalReferenceNumber == "" {
			r.ExternalReferenceNumber = ref
		}
	},
	createError: noProgramID,
	id:          func(r *requests.Request) string { return r.ID },
	table:       requestTable,
	watched:     func(r *requests.Request) (string, string) { return printable(r.ID), printable(requestState(r)) },
}

// requestTable prints omni requests: their ids, references and statuses,
// and their orders'.
var requestTable = columns[requests.Request]{
	header: "ID\tREFERENCE\tSTATUS\tORDER\tORDER STATUS\tCOURIER\tDELIVERY ETA",
	row: func(r requests.Request) []string {
		var status, orderID, orderStatus, courier string
		if r.Status != nil {
			status = string(r.Status.Name)
			if r.Status.Detail != "" {
				status += " (" + string(r.Status.Detail) + ")"
			}
		}
		if r.Order != nil {
			orderID, orderStatus, courier = r.Order.ID, string(r.Order.Status), r.Order.CourierCompany
		}
		return []string{r.ID, r.ExternalReferenceNumber, status, orderID, orderStatus, courier, r.DeliveryETA.Raw}
	},
}

func (a *app) requestsCommand() *cobra.Command {
	c := &cobra.Command{
		Use:     "requests",
		Aliases: []string{"request"},
		Short:   "Omni requests: create, get, cancel, watch",
		Example: "  rxdelivery requests get req_123",
	}
	c.AddCommand(a.requestsCreate(), a.requestsGet(), a.requestsGetMany(), a.requestsCancel(), a.requestsWatch())
	return c
}

func (a *app) requestsCreate() *cobra.Command {
	return createCommand(a, requestKind, &cobra.Command{
		Use:   "create -f FILE",
		Short: "Create an omni request from a JSON or YAML file",
		Long: `Create an omni request from a JSON or YAML file holding the body of the
create (the fields of requests.CreateParams). The file is checked first: every
problem is printed with its JSON path and nothing is sent (exit code 3). An
empty identifier is filled from --program-id or RXDELIVERY_PROGRAM_ID; with
neither, nothing is sent (exit code 2).

When the outcome of the create is unknown (exit code 6), the request may exist:
the external_reference_number is what it can be found by. With --journal-sqlite
or --journal-postgres the create goes through the journal, which never sends a
reference twice.`,
		Example: "  rxdelivery requests create -f request.json",
	})
}

// requestValidate validates a request as Create will send it: the
// identifier that Create fills in from the client's program id is not a
// problem of the file.
func requestValidate(p *requests.CreateParams) error {
	q := *p
	if q.Identifier == "" {
		q.Identifier = "program"
	}
	return q.Validate()
}

// noProgramID rewords the refusal of a create whose file gives no
// identifier while the configuration has no program id (Create fills one
// from it): a configuration error (exit code 2) that names the flag and
// the variable that give it. Other problems of the same refusal stay
// problems of the input.
func noProgramID(p *requests.CreateParams, err error) error {
	var ve *rxdelivery.ValidationError
	if p.Identifier != "" || !errors.As(err, &ve) {
		return err
	}
	const hint = "no program identifier: set --program-id or RXDELIVERY_PROGRAM_ID to the omni program id the platform issued, or give identifier in the file"
	var rest []rxtypes.Problem
	for _, pr := range ve.Problems {
		if pr.Path != "identifier" {
			rest = append(rest, pr)
		}
	}
	switch {
	case len(rest) == len(ve.Problems):
		return err
	case len(rest) == 0:
		return usagef("%s", hint)
	}
	return &rxdelivery.ValidationError{Problems: append(rest, rxtypes.Problem{Path: "identifier", Message: hint})}
}

func (a *app) requestsGet() *cobra.Command {
	return getCommand(a, requestKind.table, requestKind.get, &cobra.Command{
		Use:     "get REQUEST_ID",
		Short:   "Show an omni request with its order",
		Example: "  rxdelivery requests get req_123 --json",
	})
}

func (a *app) requestsGetMany() *cobra.Command {
	return getManyCommand(a, requestKind, &cobra.Command{
		Use:   "get-many REQUEST_ID...",
		Short: "Show several omni requests in one call",
		Long: `Show several omni requests, read in one call: a table, or with --json a JSON
array of the requests (one request or many, as with every command that lists
resources). Each id the platform did not return is reported on standard error,
after the requests it did return, and the command ends with exit code 4.`,
		Example: "  rxdelivery requests get-many req_123 req_456",
	})
}

func (a *app) requestsCancel() *cobra.Command {
	return cancelCommand(a, requestKind, &cobra.Command{
		Use:   "cancel REQUEST_ID",
		Short: "Cancel an omni request",
		Long: `Cancel an omni request. The platform refuses a cancel once the order is past
a cancellable status (exit code 5).

When standard input is a terminal it asks first ("Cancel request ID? [y/N]");
any answer but y or yes cancels nothing (exit code 2). --yes cancels without
asking. A script (standard input not a terminal) is never asked: the cancel
goes on as given. --dry-run prints what would be sent and sends nothing.`,
		Example: "  rxdelivery requests cancel req_123 --yes",
	}, requestCancelRunbook)
}

// requestCancelRunbook is what to do after a cancel of unknown outcome; %s
// is the command line that reads the request.
const requestCancelRunbook = `The cancel may or may not have taken effect. Next, read the request (its
order's status says whether it is cancelled):
       %s
  Not cancelled and still wanted: run the cancel again.
`

// requestState is what a watch of a request prints: the order's status,
// or the request's own before it has an order.
func requestState(r *requests.Request) string {
	s := "no order yet"
	if r.Order != nil {
		s = string(r.Order.Status)
	}
	if r.Status != nil && r.Status.Name != "" {
		s += " (request " + string(r.Status.Name)
		if r.Status.Detail != "" {
			s += ": " + string(r.Status.Detail)
		}
		s += ")"
	}
	return s
}

func (a *app) requestsWatch() *cobra.Command {
	return watchCommand(a, requestKind, &cobra.Command{
		Use:   "watch REQUEST_ID...",
		Short: "Follow omni requests until each reaches a final status",
		Long: `Follow an omni request: print each change of its order's status (and of the
request's own status) until its order is delivered, returned to the pharmacy
or cancelled, or the request is incomplete (Requests.Watch). A request without
an order is not final. It reads the request again and again (reads only),
waiting --interval between reads, half as long again after each read that saw
no change, up to --max-interval, jittered by a tenth. Several requests are
followed together through the get-many endpoint (Requests.WatchMany).`,
		Example: "  rxdelivery requests watch req_123",
	})
}
