package option_test

import (
	"reflect"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/option"
)

// TestSettingsHoldOnlySettings: every exported field of Settings is a
// setting a call option sets; how options are refused (an argument that
// cannot be sent, an option for calls only given to a client) is not a
// field a user can write or must read, but the error Resolve and
// ClientDefaults return.
func TestSettingsHoldOnlySettings(t *testing.T) {
	t.Parallel()
	settings := map[string]bool{"RetryMax": true, "AttemptTimeout": true, "WriteGrace": true, "Transcript": true,
		"Header": true, "Metadata": true, "Response": true, "Middleware": true, "CallMiddleware": true}
	typ := reflect.TypeOf(option.Settings{})
	for i := 0; i < typ.NumField(); i++ {
		if f := typ.Field(i); f.IsExported() && !settings[f.Name] {
			t.Errorf("Settings.%s is not a setting of a call", f.Name)
		}
	}
}
