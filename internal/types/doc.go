// Package types holds the scalar types every interface shares: an exact
// Decimal for money and measures, a civil Date, and a tolerant Time for
// timestamps in responses. The root package re-exports them by alias, so
// every service means the same type:
//
//	fee := types.MustDecimal("5.00")
//	dob := types.Date{Year: 1980, Month: time.February, Day: 29}
package types
