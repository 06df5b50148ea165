package main

import (
	"regexp"
	"strings"

	"github.com/spf13/pflag"
)

// The SDK's errors tell a Go program which option fixes them
// (WithDeliveryURL, WithCredentials(rxdelivery.Omni, ...), WithSandbox); an
// operator of the command fixes them with its flags and the environment.
// cliWords rewrites each such mention into the command's words.

// optionFlags maps an SDK option to the flag and variable that set it.
var optionFlags = map[string]string{
	"WithOmniURL":     "--omni-url or RXDELIVERY_OMNI_URL",
	"WithDeliveryURL": "--delivery-url or RXDELIVERY_DELIVERY_URL",
	"WithTrackingURL": "--tracking-url or RXDELIVERY_TRACKING_URL",
	"WithPricingURL":  "--pricing-url or RXDELIVERY_PRICING_URL",
	"WithSandbox":     "--sandbox or RXDELIVERY_SANDBOX=true",
	"WithProgramID":   "--program-id or RXDELIVERY_PROGRAM_ID",
	"WithRetryMax":    "--retry-max",
	"WithTranscript":  "--dump",
}

var (
	// "set WithDeliveryURL or RXDELIVERY_DELIVERY_URL"
	setURLOption = regexp.MustCompile(`set (With[A-Za-z]+URL) or RXDELIVERY_[A-Z]+_URL`)
	// "pass a key and secret to NewClient, or use WithCredentials(rxdelivery.Omni, key, secret)"
	passCredentials = regexp.MustCompile(`pass a key and secret to NewClient, or use WithCredentials(?:\(rxdelivery\.([A-Za-z]+), key, secret\))?`)
	// "fix the key and secret given to WithCredentials(rxdelivery.Omni, ...)"
	fixCredentials = regexp.MustCompile(`fix the key and secret given to WithCredentials\(rxdelivery\.([A-Za-z]+), \.\.\.\)`)
	// any other option: "WithSandbox"
	anyOption = regexp.MustCompile(`\bWith[A-Z][A-Za-z]*\b`)
)

// cliWords returns msg with the SDK's options replaced by the flags and
// environment variables that set them.
func cliWords(msg string) string {
	msg = setURLOption.ReplaceAllStringFunc(msg, func(m string) string {
		opt := setURLOption.FindStringSubmatch(m)[1]
		return "give " + strings.Replace(optionFlags[opt], " or ", " or set ", 1)
	})
	msg = passCredentials.ReplaceAllStringFunc(msg, func(m string) string {
		iface := passCredentials.FindStringSubmatch(m)[1]
		if iface == "" {
			return "set RXDELIVERY_API_KEY and RXDELIVERY_API_SECRET"
		}
		up := strings.ToUpper(iface)
		return "set RXDELIVERY_API_KEY and RXDELIVERY_API_SECRET, or RXDELIVERY_" + up + "_API_KEY and RXDELIVERY_" + up + "_API_SECRET"
	})
	msg = fixCredentials.ReplaceAllStringFunc(msg, func(m string) string {
		up := strings.ToUpper(fixCredentials.FindStringSubmatch(m)[1])
		return "fix RXDELIVERY_" + up + "_API_KEY and RXDELIVERY_" + up + "_API_SECRET"
	})
	return anyOption.ReplaceAllStringFunc(msg, func(m string) string {
		if f, ok := optionFlags[m]; ok {
			return f
		}
		return m
	})
}

// flagPaths maps, for each command whose params flags can set, the JSON
// path of a field to the flag that sets it. A problem the SDK reports at
// such a path is printed under the flag, unless the params came from a
// file (-f). Paths of list items ("providers[1]") match their list's.
var flagPaths = map[string]map[string]string{
	"rxdelivery pricing quote": {
		"pickup.address.zipcode":       "--from-zip",
		"dropoff.address.zipcode":      "--to-zip",
		"package_dimensions.length_in": "--length-in",
		"package_dimensions.width_in":  "--width-in",
		"package_dimensions.height_in": "--height-in",
		"package_dimensions.weight_oz": "--weight-oz",
		"providers":                    "--provider",
		"service_level":                "--service-level",
	},
	"rxdelivery pharmacies search": {
		"origin_address": "--origin-address",
		"place_id":       "--place-id",
		"page":           "--page",
		"page_size":      "--page-size",
	},
	"rxdelivery pharmacies delivery-info": {
		"delivery.address.street":  "--street",
		"delivery.address.street2": "--street2",
		"delivery.address.city":    "--city",
		"delivery.address.state":   "--state",
		"delivery.address.zipcode": "--zip",
		"address.street":           "--street",
		"address.street2":          "--street2",
		"address.city":             "--city",
		"address.state":            "--state",
		"address.zipcode":          "--zip",
		"POD":                      "--pod",
		"pod":                      "--pod",
		"package":                  "--package",
	},
	"rxdelivery tracking subscribe": {
		"tracking_number": "--tracking-number",
		"listener_url":    "--listener-url",
		"reference_id":    "--reference-id",
	},
}

// pathHints adds, to a problem at a path of a file's params, the flag or
// variable that can fill it instead.
var pathHints = map[string]map[string]string{
	"rxdelivery requests create": {
		"identifier": "(or give --program-id or set RXDELIVERY_PROGRAM_ID)",
	},
}

// problemPath is how a problem's JSON path is shown: the flag that set the
// field when the params came from flags, else the path (with a hint of
// the flag that can fill it, if one can).
func (a *app) problemPath(path string) string {
	if path == "" {
		return "(whole value)"
	}
	if a.ran == nil {
		return path
	}
	cmd := a.ran.CommandPath()
	base := path
	if i := strings.IndexByte(base, '['); i >= 0 {
		base = base[:i]
	}
	if f := a.ran.Flags().Lookup("file"); f == nil || !f.Changed {
		if flag, ok := flagPaths[cmd][base]; ok && flagOf(a.ran.Flags(), flag) {
			if strings.HasPrefix(flag, "--listener-url") && a.ran.Flags().Changed("listener-url-file") {
				flag = "--listener-url-file"
			}
			return flag
		}
	}
	if hint, ok := pathHints[cmd][path]; ok {
		return path + " " + hint
	}
	return path
}

// flagOf reports whether fs has the flag written "--name".
func flagOf(fs *pflag.FlagSet, flag string) bool {
	return fs.Lookup(strings.TrimPrefix(flag, "--")) != nil
}
