package rxdeliverytest

import (
	"os"
	"strings"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/simclient"
)

// DefaultProgramID is the omni program identifier that
// [Server.ClientOptions] gives a client ([rxdelivery.WithProgramID]), so
// that a program can create omni requests against the simulator, which
// accepts any identifier.
const DefaultProgramID = "rxdeliverytest_program"

// platformVars are the environment variables that make
// rxdelivery.NewClientFromEnv talk to a platform: credentials and base
// URLs. RXDELIVERY_SANDBOX and RXDELIVERY_PROGRAM_ID describe a platform but
// do not name one.
var platformVars = []string{
	rxdelivery.EnvAPIKey, rxdelivery.EnvAPISecret,
	rxdelivery.EnvOmniURL, rxdelivery.EnvDeliveryURL, rxdelivery.EnvTrackingURL, rxdelivery.EnvPricingURL,
	"RXDELIVERY_OMNI_API_KEY", "RXDELIVERY_OMNI_API_SECRET",
	"RXDELIVERY_DELIVERY_API_KEY", "RXDELIVERY_DELIVERY_API_SECRET",
	"RXDELIVERY_TRACKING_API_KEY", "RXDELIVERY_TRACKING_API_SECRET",
	"RXDELIVERY_PRICING_API_KEY", "RXDELIVERY_PRICING_API_SECRET",
}

// StartIfUnconfigured is for a program (a demo, a tool, an example) that
// runs against the platform the RXDELIVERY_* environment variables describe
// and, when they describe none, against a simulator, so that it works with
// no setup. When any variable that names a platform is set (the key or
// secret, a base URL, or an interface's own key or secret), it starts
// nothing and returns nil: build the client with
// [rxdelivery.NewClientFromEnv] as usual, and it will report what the
// environment lacks. Otherwise it starts a [Server] on the real clock
// ([WithRealClock], then opts) and returns it; give its ClientOptions to
// rxdelivery.NewClientFromEnv, and [Server.Close] it when the program ends:
//
//	sim, err := rxdeliverytest.StartIfUnconfigured()
//	if err != nil {
//		return err
//	}
//	var opts []rxdelivery.Option
//	if sim != nil { // no platform configured: run against the simulator
//		defer sim.Close()
//		opts = sim.ClientOptions()
//	}
//	client, err := rxdelivery.NewClientFromEnv(opts...)
//
// Unlike [Start], it returns an error rather than failing a test or
// panicking when the server cannot be set up.
func StartIfUnconfigured(opts ...Option) (*Server, error) {
	for _, name := range platformVars {
		if strings.TrimSpace(os.Getenv(name)) != "" {
			return nil, nil
		}
	}
	return newServer(append([]Option{WithRealClock()}, opts...))
}

// ClientOptions returns the options that point a client built by a
// program at the simulator: the four base URLs, the server's credentials
// for each interface, sandbox mode, [DefaultProgramID] and watches that
// wait on [Server.PollClock], then the options of [WithClientOptions].
// Given to [rxdelivery.NewClientFromEnv], they apply after the environment
// and override it; given to [rxdelivery.NewClient], the key and secret
// arguments may be empty. Unlike [Server.Client] and [Server.NewClient],
// they keep the SDK's own retry waits, as a program's client would have;
// add options after them to change anything.
func (s *Server) ClientOptions() []rxdelivery.Option {
	base := append(simclient.URLs(s.URL()),
		rxdelivery.WithCredentials(rxdelivery.Omni, s.key, s.secret),
		rxdelivery.WithCredentials(rxdelivery.Delivery, s.key, s.secret),
		rxdelivery.WithCredentials(rxdelivery.Tracking, s.key, s.secret),
		rxdelivery.WithCredentials(rxdelivery.Pricing, s.key, s.secret),
		rxdelivery.WithSandbox(true),
		rxdelivery.WithProgramID(DefaultProgramID),
		rxdelivery.WithClock(s.PollClock()),
	)
	return append(base, s.clientOps...)
}
