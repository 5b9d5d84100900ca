package pl

import (
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"

	"github.com/ptorepl/ptorepl/display"
	"github.com/ptorepl/ptorepl/ir"
)

// Readable text and HTML forms of the values cells show.

// enumKwarg names the enum an integer kwarg of an op means: PyPTO prints
// op=0 and cmp=1 bare, and the HTML view says what they stand for.
type enumKwarg struct {
	kwarg  string
	opHas  string // a substring of the op's name ("notify")
	nameOf func(v int64) string
}

var enumKwargs = []enumKwarg{
	{"op", "notify", func(v int64) string { return ir.NotifyOp(v).String() }},
	{"cmp", "wait", func(v int64) string { return ir.WaitCmp(v).String() }},
	{"op", "reduce", func(v int64) string { return ir.ReduceOp(v).String() }},
	{"op", "allreduce", func(v int64) string { return ir.ReduceOp(v).String() }},
}

var intKwarg = regexp.MustCompile(`\b(op|cmp)=(-?\d+)\b`)

// enumNotes lists what the integer enum kwargs on one printed line mean,
// "op=0: AtomicAdd", from the call each kwarg belongs to.
func enumNotes(line string) []string {
	var notes []string
	for _, m := range intKwarg.FindAllStringSubmatchIndex(line, -1) {
		call := enclosingCall(line, m[0])
		v, err := strconv.ParseInt(line[m[4]:m[5]], 10, 64)
		if err != nil || call == "" {
			continue
		}
		kw := line[m[2]:m[3]]
		for _, e := range enumKwargs {
			if e.kwarg == kw && strings.Contains(call, e.opHas) {
				notes = append(notes, fmt.Sprintf("%s=%d: %s", kw, v, e.nameOf(v)))
				break
			}
		}
	}
	return notes
}

// enclosingCall is the name of the call whose parentheses hold position p.
func enclosingCall(line string, p int) string {
	depth := 0
	for i := p - 1; i >= 0; i-- {
		switch line[i] {
		case ')', ']':
			depth++
		case '[':
			depth--
		case '(':
			if depth > 0 {
				depth--
				continue
			}
			j := i
			for j > 0 && (line[j-1] == '.' || line[j-1] == '_' || isAlnum(line[j-1])) {
				j--
			}
			return line[j:i]
		}
	}
	return ""
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// ProgramHTML renders printed PyPTO (the text stays exactly as printed) with
// syntax colouring and, beside each line that passes an enum as an integer
// (op=0, cmp=1), a muted note naming it: "# op=0: AtomicAdd".
func ProgramHTML(text string) string {
	h := display.HighlightPython(text)
	lines := strings.Split(text, "\n")
	// HighlightPython keeps line breaks one for one: annotate line by line.
	hl := strings.Split(h, "\n")
	if len(hl) != len(lines) {
		return h
	}
	for i, l := range lines {
		if notes := enumNotes(l); len(notes) > 0 {
			hl[i] += `<span class="ptorepl-enum-note" style="color:#999;font-style:italic;user-select:none">  # ` +
				html.EscapeString(strings.Join(notes, ", ")) + `</span>`
		}
	}
	return strings.Join(hl, "\n")
}

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
	if o.watchdog > 0 {
		s += fmt.Sprintf(".Watchdog(%s)", o.watchdog)
	}
	if o.unchecked {
		s += ".Unchecked()"
	}
	if o.progress > 0 {
		s += fmt.Sprintf(".ShowProgressAfter(%s)", o.progress)
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
