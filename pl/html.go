package pl

import (
	"fmt"
	"html"
	"strings"

	"github.com/ptorepl/ptorepl/display"
	"github.com/ptorepl/ptorepl/ir"
)

// Readable text and HTML forms of the values cells show.

// ProgramHTML renders printed PyPTO (the text stays exactly as printed) with
// syntax colouring and, beside each line that passes an enum as an integer
// (op=0, cmp=1), a muted note naming it: "# op=0: AtomicAdd".
func ProgramHTML(text string) string { return display.ProgramHTML(text) }

// HTML shows the program highlighted, enum kwargs annotated.
func (p *Program) HTML() string { return ProgramHTML(p.String()) }

// HTML shows the function highlighted, enum kwargs annotated.
func (fn *Function) HTML() string { return ProgramHTML(fn.String()) }

// String heads the stage's program with what the pass did.
func (s Stage) String() string { return "# after " + s.Name + " (" + s.summary() + ")\n" + s.Text }

func (s Stage) summary() string {
	switch {
	case s.Name == "Input":
		return "the program as written"
	case !s.Changed:
		return "unchanged"
	}
	return fmt.Sprintf("changed: +%d -%d lines", countLines(s.Diff, '+'), countLines(s.Diff, '-'))
}

// HTML shows the stage's program, annotated, with the pass's diff folded.
func (s Stage) HTML() string {
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="ptorepl-stage"><b>%s</b> <span style="color:#888">(%s)</span>`, html.EscapeString(s.Name), html.EscapeString(s.summary()))
	if s.Changed && s.Diff != "" {
		fmt.Fprintf(&b, `<details><summary style="cursor:pointer">diff</summary><pre>%s</pre></details>`, html.EscapeString(s.Diff))
	}
	b.WriteString(ProgramHTML(s.Text))
	b.WriteString(`</div>`)
	return b.String()
}

// Stages is the pipeline's stages in order, as Compiled.Stages returns them.
type Stages []Stage

// String lists the stages one a line: the pass and what it changed.
func (ss Stages) String() string {
	var b strings.Builder
	for i, s := range ss {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%2d %-27s %s", i, s.Name, s.summary())
	}
	return b.String()
}

// HTML lists the stages, each opening to its program.
func (ss Stages) HTML() string {
	var b strings.Builder
	b.WriteString(`<div class="ptorepl-stages" style="font-family:monospace">`)
	for i, s := range ss {
		fmt.Fprintf(&b, `<details><summary style="cursor:pointer">%2d %s <span style="color:#888">(%s)</span></summary>%s</details>`,
			i, html.EscapeString(s.Name), html.EscapeString(s.summary()), ProgramHTML(s.Text))
	}
	b.WriteString(`</div>`)
	return b.String()
}

// Difference is what Compiled.Differential found: the first pass whose
// result differs from the input program's, or none.
type Difference struct {
	// Pass is the first pass whose program's outputs differ ("" when none does).
	Pass string
	// Why says how: "argument 1 differs from the input program's result",
	// or the run's failure.
	Why string
}

// None reports whether every stage agrees with the input program.
func (d Difference) None() bool { return d.Pass == "" }

// String is "no pass differs" or "after PASS ...".
func (d Difference) String() string {
	if d.None() {
		return "no pass differs"
	}
	return "after " + d.Pass + " " + d.Why
}

// String names the rank count: "pl.Ranks(4)".
func (o RunOption) String() string {
	s := "pl.Ranks(2)"
	if o.ranks > 0 {
		s = fmt.Sprintf("pl.Ranks(%d)", o.ranks)
	}
	if o.cores > 0 {
		s += fmt.Sprintf(".Cores(%d)", o.cores)
	}
	if o.watchdog > 0 {
		s += fmt.Sprintf(".Watchdog(%s)", o.watchdog)
	}
	if o.unchecked {
		s += ".Unchecked()"
	}
	if o.relaxed {
		s += ".Relaxed()"
	}
	if o.progress > 0 {
		s += fmt.Sprintf(".ShowProgressAfter(%s)", o.progress)
	}
	if o.budget > 0 {
		s += fmt.Sprintf(".Budget(%d)", o.budget)
	}
	if o.noReduce {
		s += ".NoReduction()"
	}
	if o.replay != nil {
		s += fmt.Sprintf(".Replay(<%d decisions>)", o.replay.Len())
	}
	return s
}

// String is the loop range in PyPTO spelling: "pl.range(0, 4, 1)".
func (r *LoopRange) String() string {
	name := map[ir.LoopKind]string{ir.Sequential: "range", ir.Parallel: "parallel", ir.Unroll: "unroll"}[r.kind]
	f := ir.DefaultFormat
	return fmt.Sprintf("pl.%s(%s, %s, %s)", name, f.Expr(r.start), f.Expr(r.stop), f.Expr(r.step))
}

// String names the function being built.
func (f *Func) String() string { return "function " + f.b.Fn.Name + " (being built)" }
