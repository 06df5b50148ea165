package main

import (
	"context"
	"fmt"
	"io"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/pricing"
	"github.com/rxdelivery/rxdelivery-go/tracking"
	"github.com/spf13/cobra"
)

// subscriptionTable prints tracking subscriptions: the tracking number, its
// carrier, the subscription's status and reference, and when it was made
// and last changed.
var subscriptionTable = columns[tracking.Subscription]{
	header: "TRACKING NUMBER\tCARRIER\tSTATUS\tREASON\tREFERENCE\tSUBSCRIBED\tUPDATED",
	row: func(s tracking.Subscription) []string {
		return []string{s.TrackingNumber, string(s.Carrier), string(s.Status), s.StatusReason, s.ReferenceID, when(s.SubscribedAt), when(s.UpdatedAt)}
	},
}

func (a *app) trackingCommand() *cobra.Command {
	c := &cobra.Command{
		Use:     "tracking",
		Short:   "Tracking subscriptions: subscribe, get",
		Example: "  rxdelivery tracking get 9400100000000000000000",
	}
	c.AddCommand(a.trackingSubscribe(), a.trackingGet())
	return c
}

func (a *app) trackingSubscribe() *cobra.Command {
	var p tracking.SubscribeParams
	var urlFile string
	var d dryRun
	c := &cobra.Command{
		Use:   "subscribe --tracking-number N (--listener-url URL | --listener-url-file FILE)",
		Short: "Subscribe a tracking number to notifications at a listener URL",
		Long: `Subscribe a POSTAL or PARCELA tracking number to status notifications, POSTed
to an https listener URL. Subscribing again updates the subscription, so it is
safe to repeat. The listener URL carries a secret token: --listener-url-file
reads it from a file (as 'rxdelivery listen --url-file' writes it), so that it
stays out of the command line.`,
		Example: "  rxdelivery tracking subscribe --tracking-number 9400100000000000000000 --listener-url-file listener.url",
		RunE: d.wrap(a, a.withInput(func() error {
			if urlFile != "" {
				if p.ListenerURL != "" {
					return usagef("give --listener-url or --listener-url-file, not both")
				}
				b, err := readInput(urlFile, a.stdin)
				if err != nil {
					return err
				}
				p.ListenerURL = trimLine(string(b))
			}
			return p.Validate()
		}, func(ctx context.Context, _ *cobra.Command, client *rxdelivery.Client, _ []string) error {
			a.next = "The subscription may or may not have been made. Subscribing again is safe (it updates\nthe subscription): run the command again, or check with rxdelivery tracking get " + printable(p.TrackingNumber) + ".\n"
			sub, err := client.Tracking.Subscribe(ctx, &p, d.callOptions()...)
			if d.on {
				return d.report(a, err)
			}
			if err != nil {
				return err
			}
			return showOne(a, subscriptionTable, sub)
		})),
	}
	d.register(c)
	f := c.Flags()
	f.StringVar(&p.TrackingNumber, "tracking-number", "", "the POSTAL or PARCELA tracking `NUMBER`")
	f.StringVar(&p.ListenerURL, "listener-url", "", "the https `URL` that receives the notifications")
	f.StringVar(&urlFile, "listener-url-file", "", "read the listener URL from `FILE`")
	f.StringVar(&p.ReferenceID, "reference-id", "", "your reference, echoed in every notification")
	return c
}

func trimLine(s string) string {
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r' || s[len(s)-1] == ' ') {
		s = s[:len(s)-1]
	}
	return s
}

func (a *app) trackingGet() *cobra.Command {
	return getCommand(a, subscriptionTable, func(ctx context.Context, c *rxdelivery.Client, trackingNumber string) (*tracking.Subscription, error) {
		return c.Tracking.GetSubscription(ctx, trackingNumber)
	}, &cobra.Command{
		Use:     "get TRACKING_NUMBER",
		Short:   "Show the subscription of a tracking number",
		Example: "  rxdelivery tracking get 9400100000000000000000",
	})
}

func (a *app) pricingCommand() *cobra.Command {
	c := &cobra.Command{
		Use:     "pricing",
		Short:   "Pricing: quote a delivery",
		Example: "  rxdelivery pricing quote --from-zip 43210 --to-zip 60611 --length-in 10 --width-in 8 --height-in 4 --weight-oz 12.5",
	}
	c.AddCommand(a.pricingQuote())
	return c
}

func (a *app) pricingQuote() *cobra.Command {
	var file, from, to, length, width, height, weight, service string
	var providers []string
	var p pricing.QuoteParams
	var d dryRun
	c := &cobra.Command{
		Use:   "quote (-f FILE | --from-zip Z --to-zip Z --length-in L --width-in W --height-in H --weight-oz OZ)",
		Short: "Quote the price of delivering a package",
		Long: `Quote the price of delivering a package between two ZIP codes, from flags or
from a JSON or YAML file (the fields of pricing.QuoteParams). Every measure is
required: the platform never infers them. A quote does not reserve the rate.
With --json the output is a JSON array of the quotes (empty when there is
none), as with every command that lists resources.`,
		Example: "  rxdelivery pricing quote --from-zip 43210 --to-zip 60611 --length-in 10 --width-in 8 --height-in 4 --weight-oz 12.5",
	}
	c.RunE = d.wrap(a, a.withInput(func() error {
		if file != "" {
			for _, name := range []string{"from-zip", "to-zip", "length-in", "width-in", "height-in", "weight-oz", "provider", "service-level"} {
				if c.Flags().Changed(name) {
					return usagef("give -f or --%s, not both", name)
				}
			}
			return readParams(file, a.stdin, &p, p.Validate)
		}
		return quoteFromFlags(&p, from, to, length, width, height, weight, service, providers)
	}, func(ctx context.Context, _ *cobra.Command, client *rxdelivery.Client, _ []string) error {
		quotes, err := client.Pricing.Quote(ctx, &p, d.callOptions()...)
		if d.on {
			return d.report(a, err)
		}
		if err != nil {
			return err
		}
		if a.jsonOut {
			if quotes == nil {
				quotes = []pricing.Quote{}
			}
			return a.printJSON(quotes)
		}
		printQuotes(a.stdout, quotes)
		return nil
	}))
	d.register(c)
	f := c.Flags()
	fileFlag(c, &file, "quote")
	f.StringVar(&from, "from-zip", "", "the pickup's ZIP code")
	f.StringVar(&to, "to-zip", "", "the dropoff's ZIP code")
	f.StringVar(&length, "length-in", "", "the package's length in inches")
	f.StringVar(&width, "width-in", "", "the package's width in inches")
	f.StringVar(&height, "height-in", "", "the package's height in inches")
	f.StringVar(&weight, "weight-oz", "", "the package's weight in ounces")
	f.StringSliceVar(&providers, "provider", nil, "only this provider's quotes: all or postal (repeatable)")
	f.StringVar(&service, "service-level", "", "only this service's quotes: all or ground_service")
	return c
}

// quoteTable prints quotes: a price a provider and service.
var quoteTable = columns[pricing.Quote]{
	header: "PROVIDER\tSERVICE\tPRICE USD",
	row: func(q pricing.Quote) []string {
		return []string{string(q.Provider), string(q.Service), q.PriceUSD.String()}
	},
}

// printQuotes writes quotes as a table, or says there is none.
func printQuotes(w io.Writer, list []pricing.Quote) {
	if len(list) == 0 {
		fmt.Fprintln(w, "no quote for this package")
		return
	}
	quoteTable.print(w, list)
}

// quoteFromFlags fills p from the flags and validates it: the measures are
// read as the file's would be, each problem under its JSON path.
func quoteFromFlags(p *pricing.QuoteParams, from, to, length, width, height, weight, service string, providers []string) error {
	p.Pickup.Address.ZIPCode = from
	p.Dropoff.Address.ZIPCode = to
	p.ServiceLevel = pricing.ServiceKey(service)
	for _, pr := range providers {
		p.Providers = append(p.Providers, pricing.Provider(pr))
	}
	measures := map[string]any{}
	for name, v := range map[string]string{"length_in": length, "width_in": width, "height_in": height, "weight_oz": weight} {
		if v != "" {
			measures[name] = scalar{text: v, kind: kindString}
		}
	}
	return checkInto(map[string]any{"package_dimensions": measures}, p, p.Validate)
}
