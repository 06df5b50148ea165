// Package types holds what every interface of the platform shares: an
// exact Decimal for money and measures, a civil Date, and a tolerant Time
// for timestamps in the platform's replies. The service packages use these
// types in their params and models, and the root package names the most
// used ones by alias (rxdelivery.Decimal is types.Decimal):
//
//	fee := types.MustDecimal("5.00")
//	dob := types.Date{Year: 1980, Month: time.February, Day: 29}
package types
