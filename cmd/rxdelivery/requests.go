package main

import (
	"context"
	"fmt"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/spf13/cobra"
)

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
	var file string
	var jf journalFlags
	c := &cobra.Command{
		Use:   "create -f FILE",
		Short: "Create an omni request from a JSON or YAML file",
		Long: `Create an omni request from a JSON or YAML file holding the body of the
create (the fields of requests.CreateParams). The file is checked first: every
problem is printed with its JSON path and nothing is sent (exit code 3). An
empty identifier is filled from --program-id or RXDELIVERY_PROGRAM_ID.

When the outcome of the create is unknown (exit code 6), the request may exist:
the external_reference_number is what it can be found by. With --journal-sqlite
or --journal-postgres the create goes through the journal, which never sends a
reference twice.`,
		Example: "  rxdelivery requests create -f request.json",
		RunE: func(c *cobra.Command, _ []string) error {
			if file == "" {
				return usagef("give the request's file with -f FILE")
			}
			var p requests.CreateParams
			if err := readParams(file, a.stdin, &p, func() error { return requestValidate(&p) }); err != nil {
				return err
			}
			ctx, cancel := a.context(c)
			defer cancel()
			client, err := a.client(c)
			if err != nil {
				return err
			}
			j, closeJ, err := jf.open(ctx)
			if err != nil {
				return err
			}
			defer closeJ()
			a.next = createRunbook("request", journal.InterfaceOmni, p.ExternalReferenceNumber, j != nil)
			var r *requests.Request
			if j != nil {
				r, err = j.Requests(client.Requests).Create(ctx, &p)
			} else {
				r, err = client.Requests.Create(ctx, &p)
			}
			if err != nil {
				return err
			}
			return a.showRequests(*r)
		},
	}
	c.Flags().StringVarP(&file, "file", "f", "", "the request's JSON or YAML `FILE` (- for standard input)")
	_ = c.MarkFlagFilename("file", "json", "yaml", "yml")
	jf.register(c)
	return c
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

func (a *app) showRequests(list ...requests.Request) error {
	if a.jsonOut {
		if len(list) == 1 {
			return a.printJSON(list[0])
		}
		return a.printJSON(list)
	}
	printRequests(a.stdout, list)
	return nil
}

func (a *app) requestsGet() *cobra.Command {
	return &cobra.Command{
		Use:     "get REQUEST_ID",
		Short:   "Show an omni request with its order",
		Example: "  rxdelivery requests get req_123 --json",
		Args:    cobra.ExactArgs(1),
		RunE: a.withClient(func(ctx context.Context, c *cobra.Command, client *rxdelivery.Client, args []string) error {
			r, err := client.Requests.Get(ctx, args[0])
			if err != nil {
				return err
			}
			return a.showRequests(*r)
		}),
	}
}

func (a *app) requestsGetMany() *cobra.Command {
	return &cobra.Command{
		Use:     "get-many REQUEST_ID...",
		Short:   "Show several omni requests in one call",
		Example: "  rxdelivery requests get-many req_123 req_456",
		Args:    cobra.MinimumNArgs(1),
		RunE: a.withClient(func(ctx context.Context, c *cobra.Command, client *rxdelivery.Client, args []string) error {
			list, err := client.Requests.GetMany(ctx, args)
			if err != nil {
				return err
			}
			if a.jsonOut {
				return a.printJSON(list)
			}
			printRequests(a.stdout, list)
			return nil
		}),
	}
}

func (a *app) requestsCancel() *cobra.Command {
	return &cobra.Command{
		Use:   "cancel REQUEST_ID",
		Short: "Cancel an omni request",
		Long: `Cancel an omni request. The platform refuses a cancel once the order is past
a cancellable status (exit code 5).`,
		Example: "  rxdelivery requests cancel req_123",
		Args:    cobra.ExactArgs(1),
		RunE: a.withClient(func(ctx context.Context, c *cobra.Command, client *rxdelivery.Client, args []string) error {
			a.next = fmt.Sprintf(`The cancel may or may not have taken effect. Next:
  1. rxdelivery requests get %s   (its order's status says whether it is cancelled)
  2. not cancelled and still wanted: run the cancel again.
`, args[0])
			if err := client.Requests.Cancel(ctx, args[0]); err != nil {
				return err
			}
			return a.done(map[string]string{"id": args[0], "result": "cancelled"}, "request %s cancelled\n", args[0])
		}),
	}
}

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
	var w watchFlags
	c := &cobra.Command{
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
		Args:    cobra.MinimumNArgs(1),
		RunE: a.withClient(func(ctx context.Context, c *cobra.Command, client *rxdelivery.Client, args []string) error {
			opts, err := w.options()
			if err != nil {
				return err
			}
			if len(args) > 1 {
				return followMany(ctx, a, client.Requests.WatchMany(ctx, args, opts...), func(r *requests.Request) {
					a.watchLine(r, r.ID, requestState(r))
				})
			}
			return follow(ctx, client.Requests.Watch(ctx, args[0], opts...), func(r *requests.Request) {
				a.watchLine(r, r.ID, requestState(r))
			})
		}),
	}
	w.register(c)
	return c
}
