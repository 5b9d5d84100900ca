package checker

import (
	"fmt"
	"html"
	"strings"
)

// Kind names a class of finding.
type Kind string

// Finding kinds.
const (
	KindRace             Kind = "race"                 // unordered conflicting window accesses
	KindDeadlock         Kind = "deadlock"             // every live rank blocked (explained)
	KindResourceDeadlock Kind = "resource-deadlock"    // every core of a rank held by waits, the publisher queued
	KindOvertaken        Kind = "wait-overtaken"       // a wait a fast notifier can skip past
	KindStaleSignal      Kind = "stale-signal-reuse"   // a wait satisfied by credits already consumed
	KindMixedSetAdd      Kind = "mixed-set-add"        // Set and AtomicAdd on one cell
	KindSignalLeft       Kind = "signal-left-non-zero" // cells not back at zero at the end
	KindRunError         Kind = "run-error"            // the run failed otherwise (exploration)
	KindTileOverlap      Kind = "tile-overlap"         // two live tiles overlapping on the on-chip buffer
	KindTaskRace         Kind = "manual-scope-race"    // tasks of a manual scope sharing bytes with no deps chain
	KindNoDepRace        Kind = "no-dep-race"          // tasks a pl.no_dep slot leaves unordered sharing bytes
	KindUnchecked        Kind = "unchecked-device"     // the device cannot be observed: no race checking
	// The relaxed memory mode's kinds are in relaxed.go.
)

// Severity ranks findings: errors are bugs, warnings are fragile protocols,
// notes are facts worth knowing (a single-shot signal left at 1).
type Severity int

// Severities, most severe first.
const (
	Error Severity = iota
	Warning
	Note
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "note"
}

// Finding is one diagnosed protocol problem.
type Finding struct {
	Kind     Kind
	Severity Severity
	// Message says what happened and what to do, in a sentence or two.
	Message string
	// Details support it: both sides of a race, a cell's history.
	Details []string
	// Count is how many rank pairs (races) the finding stands for; 0 or 1: one.
	Count int
	// Seed is the schedule seed that produced it (exploration); 0: the run's own.
	Seed int64
	// Weak is, for the relaxed memory mode's findings, the statements
	// involved and the fix, typed (nil otherwise).
	Weak *WeakMemory

	key string // identifies the finding across schedules (same ops, same cells)
}

// String prints the finding as the report does: "error [deadlock] ...",
// then its details indented.
func (f Finding) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s [%s] %s", f.Severity, f.Kind, f.Message)
	if f.Seed != 0 {
		fmt.Fprintf(&b, " (schedule seed %d)", f.Seed)
	}
	for _, d := range f.Details {
		for _, line := range strings.Split(d, "\n") {
			b.WriteString("\n    ")
			b.WriteString(line)
		}
	}
	return b.String()
}

// Report is the checker's findings for a run (or an exploration).
type Report struct {
	Ranks    int
	Findings []Finding
	// Dropped counts findings beyond the checker's cap.
	Dropped int
	// Disabled is set when the run had no checker attached (only the end-of-run
	// signal hygiene and a deadlock explanation are available).
	Disabled bool
}

// Clean reports whether the run has no errors and no warnings (notes allowed).
func (r *Report) Clean() bool {
	if r == nil {
		return true
	}
	for _, f := range r.Findings {
		if f.Severity < Note {
			return false
		}
	}
	return true
}

// HasErrors reports whether any finding is an error.
func (r *Report) HasErrors() bool {
	if r == nil {
		return false
	}
	for _, f := range r.Findings {
		if f.Severity == Error {
			return true
		}
	}
	return false
}

// Of returns the findings of one kind.
func (r *Report) Of(k Kind) []Finding {
	if r == nil {
		return nil
	}
	var out []Finding
	for _, f := range r.Findings {
		if f.Kind == k {
			out = append(out, f)
		}
	}
	return out
}

// Count returns how many findings have severity s.
func (r *Report) Count(s Severity) int {
	n := 0
	if r != nil {
		for _, f := range r.Findings {
			if f.Severity == s {
				n++
			}
		}
	}
	return n
}

func (r *Report) summary() string {
	if r == nil || len(r.Findings) == 0 {
		if r != nil && r.Disabled {
			return "protocol check: off (no findings from the signal cells)"
		}
		return "protocol check: clean"
	}
	var parts []string
	for _, s := range []Severity{Error, Warning, Note} {
		if n := r.Count(s); n > 0 {
			name := s.String()
			if n > 1 {
				name += "s"
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, name))
		}
	}
	s := "protocol check: " + strings.Join(parts, ", ")
	if r.Disabled {
		s += " (checker off: signal hygiene only)"
	}
	return s
}

// String prints the report: a summary line, then each finding with its
// details indented.
func (r *Report) String() string {
	var b strings.Builder
	b.WriteString(r.summary())
	if r == nil {
		return b.String()
	}
	for _, f := range r.Findings {
		b.WriteString("\n")
		b.WriteString(f.String())
	}
	if r.Dropped > 0 {
		fmt.Fprintf(&b, "\n… %d more findings not shown", r.Dropped)
	}
	return b.String()
}

// HTML renders the report as a self-contained fragment for notebooks.
func (r *Report) HTML() string {
	var b strings.Builder
	b.WriteString(`<div class="ptorepl-protocol-report" style="font-family:sans-serif">`)
	color := "#2e7d32"
	if r != nil && r.HasErrors() {
		color = "#c62828"
	} else if !r.Clean() {
		color = "#ef6c00"
	}
	fmt.Fprintf(&b, `<div style="font-weight:bold;color:%s">%s</div>`, color, html.EscapeString(r.summary()))
	if r != nil && len(r.Findings) > 0 {
		b.WriteString(`<ul style="margin:0.3em 0;padding-left:1.2em">`)
		for _, f := range r.Findings {
			c := map[Severity]string{Error: "#c62828", Warning: "#ef6c00", Note: "#546e7a"}[f.Severity]
			fmt.Fprintf(&b, `<li class="finding %s"><span style="color:%s;font-weight:bold">%s</span> <code>%s</code> %s`,
				f.Severity, c, f.Severity, html.EscapeString(string(f.Kind)), html.EscapeString(f.Message))
			if f.Seed != 0 {
				fmt.Fprintf(&b, ` <em>(schedule seed %d)</em>`, f.Seed)
			}
			if len(f.Details) > 0 {
				b.WriteString(`<pre style="margin:0.2em 0 0.5em 0;font-size:90%">`)
				b.WriteString(html.EscapeString(strings.Join(f.Details, "\n")))
				b.WriteString(`</pre>`)
			}
			b.WriteString(`</li>`)
		}
		b.WriteString(`</ul>`)
	}
	if r != nil && r.Dropped > 0 {
		fmt.Fprintf(&b, `<div>… %d more findings not shown</div>`, r.Dropped)
	}
	b.WriteString(`</div>`)
	return b.String()
}
