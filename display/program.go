package display

import (
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

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
	h := HighlightPython(text)
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
