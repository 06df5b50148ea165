package sandbox

import "encoding/base64"

// authAlphabet is the base64 alphabet iface reads Basic credentials in, as
// the documents' examples give it: the standard alphabet for tracking
// (document 002's tracking examples), the URL-safe one for omni, delivery
// and pricing (documents 000 and 001, and 002's pricing examples), both
// unpadded (padding is trimmed before decoding). These are the alphabets
// the SDK sends (rxdelivery.WithAuthEncoding's defaults). Credentials in
// the other alphabet are refused as undecodable (401, "Invalid
// authorization credentials"), so a client that sends the wrong one fails
// in testing as it would against the platform.
//
// x-rxdelivery-reading: auth-alphabet. The documents show one alphabet per
// interface in an example and do not say whether the other is refused:
// the simulator refuses it.
func authAlphabet(iface Interface) *base64.Encoding {
	if iface == Tracking {
		return base64.RawStdEncoding
	}
	return base64.RawURLEncoding
}
