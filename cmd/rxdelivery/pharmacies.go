package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/spf13/cobra"
)

// pharmacyTable prints pharmacies: their identifiers, names, whether they
// are preferred, how far they are and where.
var pharmacyTable = columns[pharmacies.Pharmacy]{
	header: "NCPDP\tNPI\tNAME\tPREFERRED\tMILES\tPHONE\tCITY\tSTATE",
	row: func(p pharmacies.Pharmacy) []string {
		var dist string
		if p.DistanceFromOrigin != nil {
			dist = p.DistanceFromOrigin.String()
		}
		pref := "no"
		if p.Preferred {
			pref = "yes"
		}
		return []string{p.NCPDP, p.NPI, p.Name, pref, dist, p.PhoneNumber, p.Address.City, p.Address.State}
	},
}

func (a *app) pharmaciesCommand() *cobra.Command {
	c := &cobra.Command{
		Use:     "pharmacies",
		Aliases: []string{"pharmacy"},
		Short:   "Pharmacies: search, get, delivery information",
		Example: `  rxdelivery pharmacies search --origin-address "42 Elm Avenue, Columbus, OH 43210"`,
	}
	c.AddCommand(a.pharmaciesSearch(), a.pharmaciesGet(), a.pharmaciesDeliveryInfo())
	return c
}

func (a *app) pharmaciesSearch() *cobra.Command {
	var p pharmacies.SearchParams
	var all bool
	c := &cobra.Command{
		Use:   "search (--origin-address ADDRESS | --place-id ID)",
		Short: "Search the pharmacies that deliver to an address, one page or all",
		Long: `Search the pharmacies that deliver to an origin address (postal form, with its
ZIP code) or a map provider's place id: preferred pharmacies first, then by
distance. One page at a time (--page, --page-size), or every page with --all.

With --json the output is a JSON array of the pharmacies found (of the page,
or of every page with --all), as with every command that lists resources; the
line saying which page of how many (or how many in all) then goes to standard
error.`,
		Example: `  rxdelivery pharmacies search --origin-address "42 Elm Avenue, Columbus, OH 43210" --page-size 50 --all`,
		RunE: a.withInput(p.Validate, func(ctx context.Context, _ *cobra.Command, client *rxdelivery.Client, _ []string) error {
			var list []pharmacies.Pharmacy
			var footer string
			if all {
				for ph, err := range client.Pharmacies.All(ctx, &p) {
					if err != nil {
						return err
					}
					list = append(list, ph)
				}
				footer = fmt.Sprintf("%d pharmacies\n", len(list))
			} else {
				page, err := client.Pharmacies.Search(ctx, &p)
				if err != nil {
					return err
				}
				list = page.Pharmacies
				footer = fmt.Sprintf("page %d of %d (%d pharmacies, %d a page)\n", page.Page, page.TotalPages, page.Count, page.PageSize)
			}
			if err := showList(a, pharmacyTable, list); err != nil {
				return err
			}
			// With --json, stdout is the array alone: the count goes to
			// stderr.
			out := a.stdout
			if a.jsonOut {
				out = a.stderr
			}
			_, err := io.WriteString(out, footer)
			return err
		}),
	}
	f := c.Flags()
	f.StringVar(&p.OriginAddress, "origin-address", "", "the dropoff `ADDRESS` in postal form, with its ZIP code")
	f.StringVar(&p.PlaceID, "place-id", "", "a map provider's place `ID` of the dropoff")
	f.IntVar(&p.Page, "page", 0, "the page to fetch, from 1 (0: the platform's first)")
	f.IntVar(&p.PageSize, "page-size", 0, "results a page, 1 to 100 (0: the platform's 30)")
	f.BoolVar(&all, "all", false, "fetch every page from --page on")
	return c
}

func (a *app) pharmaciesGet() *cobra.Command {
	return getCommand(a, pharmacyTable, func(ctx context.Context, c *rxdelivery.Client, id string) (*pharmacies.Pharmacy, error) {
		return c.Pharmacies.Get(ctx, id)
	}, &cobra.Command{
		Use:     "get NCPDP_OR_NPI",
		Short:   "Show a pharmacy by its NCPDP identifier (7 digits) or NPI (10 digits)",
		Example: "  rxdelivery pharmacies get 1234567",
	})
}

func (a *app) pharmaciesDeliveryInfo() *cobra.Command {
	var p pharmacies.DeliveryInfoParams
	c := &cobra.Command{
		Use:   "delivery-info NPI --street S --city C --state ST --zip Z",
		Short: "Show a pharmacy's delivery information to an address",
		Long: `Ask the delivery interface for a pharmacy's delivery information to an
address. The document shows no schema for the response, so it is printed as the
platform sent it (indented JSON), with or without --json.`,
		Example: `  rxdelivery pharmacies delivery-info 1234567890 --street "100 Main St" --city Columbus --state OH --zip 43210`,
		Args:    cobra.ExactArgs(1),
		RunE: a.withInput(p.Validate, func(ctx context.Context, _ *cobra.Command, client *rxdelivery.Client, args []string) error {
			info, err := client.Pharmacies.DeliveryInfo(ctx, args[0], &p)
			if err != nil {
				return err
			}
			var b bytes.Buffer
			if err := json.Indent(&b, info.Raw, "", "  "); err != nil {
				b.Reset()
				b.WriteString(printable(string(info.Raw)))
			}
			b.WriteByte('\n')
			_, err = a.stdout.Write(printableJSON(b.Bytes()))
			return err
		}),
	}
	f := c.Flags()
	f.StringVar(&p.Address.Street, "street", "", "the dropoff's street line")
	f.StringVar(&p.Address.Street2, "street2", "", "the dropoff's second line")
	f.StringVar(&p.Address.City, "city", "", "the dropoff's city")
	f.StringVar(&p.Address.State, "state", "", "the dropoff's two-letter state code")
	f.StringVar(&p.Address.Zipcode, "zip", "", "the dropoff's ZIP code or ZIP+4")
	f.StringVar(&p.POD, "pod", "", "the proof-of-delivery method (empty: the pharmacy's configured one)")
	f.StringVar(&p.Package, "package", "", "the package to ship in")
	f.BoolVar(&p.SaturdayDelivery, "saturday", false, "ask for Saturday delivery")
	return c
}
