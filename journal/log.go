package journal

import (
	"context"
	"log/slog"
)

// WithLogger writes the journal's events to l: claims taken (Debug),
// creates recorded and notifications handled (Debug), claims released on
// a response proving nothing was created or a failed callback (Info),
// creates refused because their key is claimed (Info), outcomes become
// unknown, leases that ended and takeovers (Warn), store failures and
// creates not recorded (Error), and an operator's [Journal.Resolve],
// [Journal.Free] and [Journal.Prune] (Info). Each line carries the
// interface and this process's holder, and the event's own facts: the
// claim's holder and state, the created id, the cause of an unknown
// outcome (the SDK's error, which names method, path and status and never
// a request's values) or the store's error with the reference removed. No
// line carries patient data, a callback's error or the reference (see
// [WithReferencesInLogs]). A nil l logs nothing (the default).
func WithLogger(l *slog.Logger) Option {
	return func(j *Journal) { j.logger = l }
}

// WithReferencesInLogs adds to each line [WithLogger] writes the key's
// reference, as the separate attribute "reference" (never in the
// message), for an operator who needs to find a claim from its line. The
// reference is the caller's external_reference_number, often a medical
// record number: ask for it only where the logs may hold one. The
// journal's errors never carry it, whatever this option says.
func WithReferencesInLogs() Option {
	return func(j *Journal) { j.logReferences = true }
}

// log writes one event about k.
func (j *Journal) log(ctx context.Context, level slog.Level, msg string, k Key, attrs ...slog.Attr) {
	if j.logger == nil || !j.logger.Enabled(ctx, level) {
		return
	}
	all := make([]slog.Attr, 0, len(attrs)+3)
	all = append(all, slog.String("interface", k.Interface), slog.String("holder", j.holder))
	if j.logReferences {
		all = append(all, slog.String("reference", k.Reference))
	}
	all = append(all, attrs...)
	j.logger.LogAttrs(ctx, level, msg, all...)
}

// logErr writes a store failure about k, its text without the reference.
func (j *Journal) logErr(ctx context.Context, msg string, k Key, err error) {
	j.log(ctx, slog.LevelError, msg, k, slog.String("error", redact(k, err).Error()))
}
