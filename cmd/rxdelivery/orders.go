package main

import (
	"context"
	"fmt"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/spf13/cobra"
)

// orderKind is what the commands orders share with requests know of
// delivery orders.
var orderKind = kind[orders.CreateParams, orders.Order]{
	noun:    "order",
	iface:   journal.InterfaceDelivery,
	service: func(c *rxdelivery.Client) deliveryService[orders.CreateParams, orders.Order] { return c.Orders },
	journaled: func(j *journal.Journal, c *rxdelivery.Client) creator[orders.CreateParams, orders.Order] {
		return j.Orders(c.Orders)
	},
	validate:  (*orders.CreateParams).Validate,
	reference: func(p *orders.CreateParams) string { return p.ExternalReferenceNumber },
	sentReference: func(o *orders.Order, ref string) {
		if o.ExternalReferenceNumber == "" {
			o.ExternalReferenceNumber = ref
		}
	},
	id:      func(o *orders.Order) string { return o.ID },
	table:   orderTable,
	watched: func(o *orders.Order) (string, string) { return printable(o.ID), printable(string(o.Status)) },
}

// orderTable prints orders: their ids, statuses and references, and when
// and by whom they arrive.
var orderTable = columns[orders.Order]{
	header: "ID\tSTATUS\tREFERENCE\tETA\tCARRIER\tTRACKING NUMBER",
	row: func(o orders.Order) []string {
		var eta, tn, carrier string
		if o.ETA != nil {
			eta = string(o.ETA.Type) + " " + when(o.ETA.ArrivalAt)
			if o.ETA.Type == "" {
				eta = when(o.ETA.ArrivalAt)
			}
		}
		if o.Shipping != nil {
			tn, carrier = o.Shipping.TrackingNumber, string(o.Shipping.Carrier)
		}
		return []string{o.ID, string(o.Status), o.ExternalReferenceNumber, eta, carrier, tn}
	},
}

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
	return createCommand(a, orderKind, &cobra.Command{
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
	})
}

func (a *app) ordersGet() *cobra.Command {
	return getCommand(a, orderKind.table, orderKind.get, &cobra.Command{
		Use:     "get ORDER_ID",
		Short:   "Show a delivery order",
		Example: "  rxdelivery orders get ord_123 --json",
	})
}

func (a *app) ordersGetMany() *cobra.Command {
	return getManyCommand(a, orderKind, &cobra.Command{
		Use:   "get-many ORDER_ID...",
		Short: "Show several delivery orders in one call",
		Long: `Show several delivery orders, read in one call: a table, or with --json a
JSON array of the orders (one order or many, as with every command that lists
resources). Each id the platform did not return is reported on standard error,
after the orders it did return, and the command ends with exit code 4.`,
		Example: "  rxdelivery orders get-many ord_123 ord_456",
	})
}

func (a *app) ordersCancel() *cobra.Command {
	return cancelCommand(a, orderKind, &cobra.Command{
		Use:   "cancel ORDER_ID",
		Short: "Cancel a delivery order",
		Long: `Cancel a delivery order. The platform refuses a cancel once the order is past
a cancellable status (exit code 5).

When standard input is a terminal it asks first ("Cancel order ID? [y/N]");
any answer but y or yes cancels nothing (exit code 2). --yes cancels without
asking. A script (standard input not a terminal) is never asked: the cancel
goes on as given. --dry-run prints what would be sent and sends nothing.`,
		Example: "  rxdelivery orders cancel ord_123 --yes",
	}, orderCancelRunbook)
}

// orderCancelRunbook is what to do after a cancel of unknown outcome; %s is
// the command line that reads the order.
const orderCancelRunbook = `The cancel may or may not have taken effect. Next, read the order (its status
says whether it is cancelled):
       %s
  Not cancelled and still wanted: run the cancel again (a second cancel of a
  cancelled order is refused, never harmful).
`

func (a *app) ordersAddPrescription() *cobra.Command {
	add := func(ctx context.Context, client *rxdelivery.Client, args []string, p *orders.Prescription, d *dryRun) (*orders.Order, error) {
		a.next = fmt.Sprintf(`The prescription may or may not have been added. The platform returns no
prescription list to check it by: ask the platform's support whether order %s
has the prescription before adding it again.
`, printable(args[0]))
		return client.Orders.AddPrescription(ctx, args[0], p, d.callOptions()...)
	}
	return fileCommand(a, "prescription", (*orders.Prescription).Validate, orderKind.table, add, &cobra.Command{
		Use:   "add-prescription ORDER_ID -f FILE",
		Short: "Add a prescription to a delivery order, from a JSON or YAML file",
		Long: `Add a prescription to a delivery order. The file holds one prescription (the
fields of orders.Prescription); it is checked first, every problem printed with
its JSON path, and nothing sent when it has one.`,
		Example: "  rxdelivery orders add-prescription ord_123 -f rx.yaml",
		Args:    cobra.ExactArgs(1),
	})
}

func (a *app) ordersRemovePrescription() *cobra.Command {
	var d dryRun
	c := &cobra.Command{
		Use:     "remove-prescription ORDER_ID RX_NUMBER",
		Short:   "Remove a prescription from a delivery order",
		Example: "  rxdelivery orders remove-prescription ord_123 RX-0001",
		Args:    cobra.ExactArgs(2),
		RunE: d.wrap(a, a.withClient(func(ctx context.Context, c *cobra.Command, client *rxdelivery.Client, args []string) error {
			a.next = `The prescription may or may not have been removed. Removing it again is
refused once it is gone; ask the platform's support if in doubt.
`
			err := client.Orders.RemovePrescription(ctx, args[0], args[1], d.callOptions()...)
			if d.on {
				return d.report(a, err)
			}
			if err != nil {
				return err
			}
			return a.done(map[string]string{"id": args[0], "removed": args[1]}, "prescription removed from order %s\n", args[0])
		})),
	}
	d.register(c)
	return c
}

func (a *app) ordersWatch() *cobra.Command {
	return watchCommand(a, orderKind, &cobra.Command{
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
	})
}
