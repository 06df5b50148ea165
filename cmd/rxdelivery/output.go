package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/pricing"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// The tables show what an operator follows a delivery by: ids, statuses,
// references, times and carriers. Names, addresses and signatures (patient
// data) are in the --json form of the resource only.

// table writes rows under a header, columns aligned.
func table(w io.Writer, header string, rows [][]string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, header)
	for _, r := range rows {
		for i := range r {
			r[i] = dash(strings.NewReplacer("\t", " ", "\n", " ").Replace(r[i]))
		}
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// when formats a platform time: RFC 3339 in UTC, or the text as sent.
func when(t rxtypes.Time) string {
	if !t.IsZero() {
		return t.UTC().Format(time.RFC3339)
	}
	return t.Raw
}

func orderRows(list []orders.Order) [][]string {
	rows := make([][]string, 0, len(list))
	for _, o := range list {
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
		rows = append(rows, []string{o.ID, string(o.Status), o.ExternalReferenceNumber, eta, carrier, tn})
	}
	return rows
}

const orderHeader = "ID\tSTATUS\tREFERENCE\tETA\tCARRIER\tTRACKING NUMBER"

func printOrders(w io.Writer, list []orders.Order) {
	table(w, orderHeader, orderRows(list))
}

func requestRows(list []requests.Request) [][]string {
	rows := make([][]string, 0, len(list))
	for _, r := range list {
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
		rows = append(rows, []string{r.ID, r.ExternalReferenceNumber, status, orderID, orderStatus, courier, r.DeliveryETA.Raw})
	}
	return rows
}

const requestHeader = "ID\tREFERENCE\tSTATUS\tORDER\tORDER STATUS\tCOURIER\tDELIVERY ETA"

func printRequests(w io.Writer, list []requests.Request) {
	table(w, requestHeader, requestRows(list))
}

func printPharmacies(w io.Writer, list []pharmacies.Pharmacy) {
	rows := make([][]string, 0, len(list))
	for _, p := range list {
		var dist string
		if p.DistanceFromOrigin != nil {
			dist = p.DistanceFromOrigin.String()
		}
		pref := "no"
		if p.Preferred {
			pref = "yes"
		}
		rows = append(rows, []string{p.NCPDP, p.NPI, p.Name, pref, dist, p.PhoneNumber, p.Address.City, p.Address.State})
	}
	table(w, "NCPDP\tNPI\tNAME\tPREFERRED\tMILES\tPHONE\tCITY\tSTATE", rows)
}

func printSubscriptions(w io.Writer, list ...*tracking.Subscription) {
	rows := make([][]string, 0, len(list))
	for _, s := range list {
		rows = append(rows, []string{s.TrackingNumber, string(s.Carrier), string(s.Status), s.StatusReason, s.ReferenceID, when(s.SubscribedAt), when(s.UpdatedAt)})
	}
	table(w, "TRACKING NUMBER\tCARRIER\tSTATUS\tREASON\tREFERENCE\tSUBSCRIBED\tUPDATED", rows)
}

func printQuotes(w io.Writer, list []pricing.Quote) {
	if len(list) == 0 {
		fmt.Fprintln(w, "no quote for this package")
		return
	}
	rows := make([][]string, 0, len(list))
	for _, q := range list {
		rows = append(rows, []string{string(q.Provider), string(q.Service), q.PriceUSD.String()})
	}
	table(w, "PROVIDER\tSERVICE\tPRICE USD", rows)
}

func printNotification(w io.Writer, n *tracking.Notification) {
	stale := ""
	if n.Stale {
		stale = " (stale)"
	}
	fmt.Fprintf(w, "%s  %s  %s  %s%s  %s  ref=%s\n", when(n.StatusOccurredAt), n.TrackingNumber, n.Carrier, n.Status, stale,
		dash(n.StatusText), dash(n.ReferenceID))
}
