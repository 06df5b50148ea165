// Package callpath holds the measure of what one call runs: two tests,
// one that makes a client and one that makes a client and creates an
// order, whose coverage profiles count.sh compares (see CONTRIBUTING.md,
// "The map of a call"). It has no code of its own.
package callpath
