package main

import (
	"context"
	"fmt"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/spf13/cobra"
)

func (a *app) ordersCommand() *cobra.Command {
	c := &cobra.Command{
		Use:     "orders",
		Aliases: []string{"order"},
		Short:   "Delivery orders: create, get, cancel, watch, edit prescriptions",
		Example: "  rxdelivery orders get ord_123",
	}
	c.AddCommand(a.ordersCreate(), a.ordersGet(), a.ordersGetMany(), a.ordersCancel(), a.ordersWatch(),
		a.ordersAddPrescription(), a.ordersRemovePrescription())
	return c
}

func (a *app) ordersCreate() *cobra.Command {
	var file string
	var jf journalFlags
	c := &cobra.Command{
		Use:   "create -f FILE",
		Short: "Create a delivery order from a JSON or YAML file",
		Long: `Create a delivery order from a JSON or YAML file holding the body of the
create (the fields of the delivery interface's order, as orders.CreateParams
names them). The file is checked first: every problem is printed with its JSON
path and nothing is sent (exit code 3).

Give the order an external_reference_number: when the outcome of the create is
unknown (exit code 6), it is what the order can be found by. With --journal-sqlite
or --journal-postgres the create goes through the journal, which never sends a
reference twice.`,
		Example: "  rxdelivery orders create -f order.yaml --journal-sqlite journal.db",
		RunE: func(c *cobra.Command, _ []string) error {
			if file == "" {
				return usagef("give the order's file with -f FILE")
			}
			var p orders.CreateParams
			if err := readParams(file, a.stdin, &p, p.Validate); err != nil {
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
			a.next = createRunbook("order", journal.InterfaceDelivery, p.ExternalReferenceNumber, j != nil)
			var o *orders.Order
			if j != nil {
				o, err = j.Orders(client.Orders).Create(ctx, &p)
			} else {
				o, err = client.Orders.Create(ctx, &p)
			}
			if err != nil {
				return err
			}
			return a.showOrders(*o)
		},
	}
	c.Flags().StringVarP(&file, "file", "f", "", "the order's JSON or YAML `FILE` (- for standard input)")
	_ = c.MarkFlagFilename("file", "json", "yaml", "yml")
	jf.register(c)
	return c
}

func (a *app) showOrders(list ...orders.Order) error {
	if a.jsonOut {
		if len(list) == 1 {
			return a.printJSON(list[0])
		}
		return a.printJSON(list)
	}
	printOrders(a.stdout, list)
	return nil
}

func (a *app) ordersGet() *cobra.Command {
	return &cobra.Command{
		Use:     "get ORDER_ID",
		Short:   "Show a delivery order",
		Example: "  rxdelivery orders get ord_123 --json",
		Args:    cobra.ExactArgs(1),
		RunE: a.withClient(func(ctx context.Context, c *cobra.Command, client *rxdelivery.Client, args []string) error {
			o, err := client.Orders.Get(ctx, args[0])
			if err != nil {
				return err
			}
			return a.showOrders(*o)
		}),
	}
}

func (a *app) ordersGetMany() *cobra.Command {
	return &cobra.Command{
		Use:     "get-many ORDER_ID...",
		Short:   "Show several delivery orders in one call",
		Example: "  rxdelivery orders get-many ord_123 ord_456",
		Args:    cobra.MinimumNArgs(1),
		RunE: a.withClient(func(ctx context.Context, c *cobra.Command, client *rxdelivery.Client, args []string) error {
			list, err := client.Orders.GetMany(ctx, args)
			if err != nil {
				return err
			}
			if a.jsonOut {
				return a.printJSON(list)
			}
			printOrders(a.stdout, list)
			return nil
		}),
	}
}

func (a *app) ordersCancel() *cobra.Command {
	return &cobra.Command{
		Use:   "cancel ORDER_ID",
		Short: "Cancel a delivery order",
		Long: `Cancel a delivery order. The platform refuses a cancel once the order is past
a cancellable status (exit code 5).`,
		Example: "  rxdelivery orders cancel ord_123",
		Args:    cobra.ExactArgs(1),
		RunE: a.withClient(func(ctx context.Context, c *cobra.Command, client *rxdelivery.Client, args []string) error {
			a.next = fmt.Sprintf(`The cancel may or may not have taken effect. Next:
  1. rxdelivery orders get %s   (its status says whether it is cancelled)
  2. not cancelled and still wanted: run the cancel again (a second cancel
     of a cancelled order is refused, never harmful).
`, args[0])
			if err := client.Orders.Cancel(ctx, args[0]); err != nil {
				return err
			}
			return a.done(map[string]string{"id": args[0], "result": "cancelled"}, "order %s cancelled\n", args[0])
		}),
	}
}

// done reports a write with no resource in its answer.
func (a *app) done(v any, format string, args ...any) error {
	if a.jsonOut {
		return a.printJSON(v)
	}
	_, err := fmt.Fprintf(a.stdout, format, args...)
	return err
}

func (a *app) ordersAddPrescription() *cobra.Command {
	var file string
	c := &cobra.Command{
		Use:   "add-prescription ORDER_ID -f FILE",
		Short: "Add a prescription to a delivery order, from a JSON or YAML file",
		Long: `Add a prescription to a delivery order. The file holds one prescription (the
fields of orders.Prescription); it is checked first, every problem printed with
its JSON path, and nothing sent when it has one.`,
		Example: "  rxdelivery orders add-prescription ord_123 -f rx.yaml",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if file == "" {
				return usagef("give the prescription's file with -f FILE")
			}
			var p orders.Prescription
			if err := readParams(file, a.stdin, &p, p.Validate); err != nil {
				return err
			}
			ctx, cancel := a.context(c)
			defer cancel()
			client, err := a.client(c)
			if err != nil {
				return err
			}
			a.next = fmt.Sprintf(`The prescription may or may not have been added. The platform returns no
prescription list to check it by: ask the platform's support whether order %s
has the prescription before adding it again.
`, args[0])
			o, err := client.Orders.AddPrescription(ctx, args[0], &p)
			if err != nil {
				return err
			}
			return a.showOrders(*o)
		},
	}
	c.Flags().StringVarP(&file, "file", "f", "", "the prescription's JSON or YAML `FILE` (- for standard input)")
	_ = c.MarkFlagFilename("file", "json", "yaml", "yml")
	return c
}

func (a *app) ordersRemovePrescription() *cobra.Command {
	return &cobra.Command{
		Use:     "remove-prescription ORDER_ID RX_NUMBER",
		Short:   "Remove a prescription from a delivery order",
		Example: "  rxdelivery orders remove-prescription ord_123 RX-0001",
		Args:    cobra.ExactArgs(2),
		RunE: a.withClient(func(ctx context.Context, c *cobra.Command, client *rxdelivery.Client, args []string) error {
			a.next = `The prescription may or may not have been removed. Removing it again is
refused once it is gone; ask the platform's support if in doubt.
`
			if err := client.Orders.RemovePrescription(ctx, args[0], args[1]); err != nil {
				return err
			}
			return a.done(map[string]string{"id": args[0], "removed": args[1]}, "prescription removed from order %s\n", args[0])
		}),
	}
}

func (a *app) ordersWatch() *cobra.Command {
	var w watchFlags
	c := &cobra.Command{
		Use:   "watch ORDER_ID...",
		Short: "Follow delivery orders until each reaches a final status",
		Long: `Follow a delivery order: print each status change until the order is
delivered, returned to the pharmacy or cancelled (Orders.Watch). It reads the
order again and again (reads only), waiting --interval between reads, half as
long again after each read that saw no change, up to --max-interval, jittered
by a tenth; a read that fails for a passing reason (429, 5xx, a failed
connection) is tried again at the next read. Several orders are followed
together through the get-many endpoint (Orders.WatchMany), one line each time
one of them changes, until every one is final.`,
		Example: "  rxdelivery orders watch ord_123 ord_456 --interval 10s",
		Args:    cobra.MinimumNArgs(1),
		RunE: a.withClient(func(ctx context.Context, c *cobra.Command, client *rxdelivery.Client, args []string) error {
			opts, err := w.options()
			if err != nil {
				return err
			}
			if len(args) > 1 {
				return followMany(ctx, a, client.Orders.WatchMany(ctx, args, opts...), func(o *orders.Order) {
					a.watchLine(o, o.ID, string(o.Status))
				})
			}
			return follow(ctx, client.Orders.Watch(ctx, args[0], opts...), func(o *orders.Order) {
				a.watchLine(o, o.ID, string(o.Status))
			})
		}),
	}
	w.register(c)
	return c
}
