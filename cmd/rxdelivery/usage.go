package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The global flags are shown in groups, and each group only in the help of
// the commands it applies to: a command's --help lists its own flags
// first, not twenty global ones.
const (
	// flagGroupKey is the annotation naming a global flag's group.
	flagGroupKey = "rxdelivery_group"
	// groupOutput holds --json.
	groupOutput = "Output"
	// groupClient holds the flags that configure the SDK's client: base
	// URLs, sandbox mode, program id, retries, timeouts and --dump.
	groupClient = "Client"
)

// clientFlags are the global flags of groupClient.
var clientFlags = []string{"omni-url", "delivery-url", "tracking-url", "pricing-url", "sandbox", "program-id", "retry-max", "attempt-timeout", "timeout", "dump"}

// groupApplies reports whether the global flags of group do something for
// c: the client's flags for the commands that call the platform (not
// sandbox, journal, version, help or completion), --json for those that
// print a result (not sandbox, help or completion).
func groupApplies(c *cobra.Command, group string) bool {
	top := c
	for top.HasParent() && top.Parent().HasParent() {
		top = top.Parent()
	}
	if !top.HasParent() {
		return true // the root: every group, to say they exist
	}
	switch top.Name() {
	case "sandbox", "help", "completion", cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd:
		return false
	case "journal", "version":
		return group != groupClient
	}
	return true
}

// usage writes c's usage: the usage line, aliases, examples, commands,
// then its own flags, and the global flags that apply to it in their
// groups (Output, Client, and those of a parent command such as journal's
// store flags).
func usage(c *cobra.Command) error {
	var b strings.Builder
	b.WriteString("Usage:")
	if c.Runnable() && !c.HasAvailableSubCommands() {
		b.WriteString("\n  " + c.UseLine())
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n  " + c.CommandPath() + " [command]")
	}
	if len(c.Aliases) > 0 {
		b.WriteString("\n\nAliases:\n  " + c.NameAndAliases())
	}
	if c.HasExample() {
		b.WriteString("\n\nExamples:\n" + c.Example)
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n\nAvailable Commands:")
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() || s.Name() == "help" {
				fmt.Fprintf(&b, "\n  %-*s %s", s.NamePadding(), s.Name(), s.Short)
			}
		}
	}

	own := pflag.NewFlagSet("own", pflag.ContinueOnError)
	groups := map[string]*pflag.FlagSet{}
	var order []string
	add := func(group string, f *pflag.Flag) {
		fs := groups[group]
		if fs == nil {
			fs = pflag.NewFlagSet(group, pflag.ContinueOnError)
			groups[group] = fs
			order = append(order, group)
		}
		fs.AddFlag(f)
	}
	for _, g := range []string{groupOutput, groupClient} {
		if groupApplies(c, g) {
			groups[g] = pflag.NewFlagSet(g, pflag.ContinueOnError)
			order = append(order, g)
		}
	}
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		if g := f.Annotations[flagGroupKey]; len(g) > 0 {
			if groups[g[0]] != nil {
				groups[g[0]].AddFlag(f)
			}
			return
		}
		own.AddFlag(f)
	})
	c.InheritedFlags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		if g := f.Annotations[flagGroupKey]; len(g) > 0 {
			if groups[g[0]] != nil {
				groups[g[0]].AddFlag(f)
			}
			return
		}
		add(definedBy(c, f.Name), f)
	})
	if own.HasAvailableFlags() {
		b.WriteString("\n\nFlags:\n" + strings.TrimRight(own.FlagUsages(), " \n"))
	}
	for _, g := range order {
		if fs := groups[g]; fs.HasAvailableFlags() {
			b.WriteString("\n\n" + g + " Flags:\n" + strings.TrimRight(fs.FlagUsages(), " \n"))
		}
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n\nUse \"" + c.CommandPath() + " [command] --help\" for more information about a command.")
	}
	b.WriteString("\n")
	_, err := fmt.Fprint(c.OutOrStderr(), b.String())
	return err
}

// definedBy names the group of an inherited flag without one: the
// ancestor of c whose persistent flag it is, capitalised ("Journal").
func definedBy(c *cobra.Command, name string) string {
	for p := c.Parent(); p != nil; p = p.Parent() {
		if p.PersistentFlags().Lookup(name) != nil {
			n := p.Name()
			return strings.ToUpper(n[:1]) + n[1:]
		}
	}
	return "Global"
}
