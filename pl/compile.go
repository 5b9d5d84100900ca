package pl

import (
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"

	"github.com/ptorepl/ptorepl/internal/dsl"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/manifest"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/pto"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/verify"
)

// Stage is the program after one pass of the pipeline (or the input).
type Stage struct {
	Name    string // the pass, or "Input"
	Text    string // the program printed in PyPTO syntax
	Changed bool   // false when the pass left the program as it was
	Diff    string // unified diff against the previous stage ("" if unchanged)
	program *ir.Program
}

// Program is the stage's program, for printing or running.
func (s Stage) Program() *ir.Program { return s.program }

// Compiled is a program lowered through the whole pass pipeline. PyPTO:
// ir.compile(program).
type Compiled struct {
	input   *ir.Program
	stages  []Stage
	modules []pto.Module
	ptoErr  error
	ranks   int
	// warnings are the post-pipeline verifier's findings on the lowered
	// program (upstream's PostPipeline diagnostics).
	warnings []string
}

// CompileOption configures pl.Compile; pl.Ranks(n) is one (it resolves
// window sizes that depend on the world size in the manifest).
type CompileOption = RunOption

// Compile runs the pass pipeline on prog and generates PTO-MLIR for its
// InCore functions. A pass that rejects the program raises the error in the
// cell; use TryCompile to get it as a value.
func Compile(prog *Program, opts ...CompileOption) *Compiled {
	c, err := TryCompile(prog, opts...)
	if err != nil {
		dsl.Raise(err)
	}
	return c
}

// TryCompile is Compile returning the pipeline's error.
func TryCompile(prog *Program, opts ...CompileOption) (*Compiled, error) {
	if prog == nil {
		return nil, fmt.Errorf("pl.Compile: the program is nil")
	}
	dsl.NoteProgram(prog.IR())
	return CompileIR(prog.IR(), opts...)
}

// CompileIR compiles a program given as IR (the REPL's last program, a
// deserialized file).
func CompileIR(p *ir.Program, opts ...CompileOption) (*Compiled, error) {
	c := &Compiled{input: p}
	for _, o := range opts {
		if o.ranks > 0 {
			c.ranks = o.ranks
		}
	}
	pp := passes.NewPipeline(p)
	if _, err := pp.Run(); err != nil {
		return nil, fmt.Errorf("pl.Compile: %w", err)
	}
	for _, s := range pp.Stages() {
		c.stages = append(c.stages, Stage{Name: s.Name, Text: s.Text, Changed: s.Changed, Diff: s.Diff, program: s.Program})
	}
	c.modules, c.ptoErr = pto.Emit(c.Final(), pto.Options{})
	for _, d := range verify.PostPipeline(c.Final()) {
		c.warnings = append(c.warnings, d.String())
	}
	return c, nil
}

// Warnings lists what the verifier reports on the lowered program without
// rejecting it: a parameter declared In that its function writes
// (ParamDirectionsSound), one line each.
func (c *Compiled) Warnings() []string { return append([]string(nil), c.warnings...) }

// Stages lists the input and the program after every pass, in order; it
// prints one line per stage.
func (c *Compiled) Stages() Stages { return append(Stages(nil), c.stages...) }

// Stage returns the stage after the named pass (or "Input").
func (c *Compiled) Stage(name string) (Stage, bool) {
	for _, s := range c.stages {
		if s.Name == name {
			return s, true
		}
	}
	return Stage{}, false
}

// Final is the fully lowered program.
func (c *Compiled) Final() *ir.Program { return c.stages[len(c.stages)-1].program }

// PTO is the PTO-MLIR text of every InCore function, one module each. A
// codegen error raises in the cell.
func (c *Compiled) PTO() string {
	text, err := c.PTOText()
	if err != nil {
		dsl.Raise(err)
	}
	return text
}

// PTOText is PTO returning codegen's error.
func (c *Compiled) PTOText() (string, error) {
	if c.ptoErr != nil {
		return "", fmt.Errorf("PTO codegen: %w", c.ptoErr)
	}
	var parts []string
	for _, m := range c.modules {
		parts = append(parts, "// "+m.Function+".pto\n"+m.Text)
	}
	return strings.Join(parts, "\n"), nil
}

// Manifest is the comm manifest JSON ("" for a program without comm
// groups). A size that depends on the world size needs pl.Ranks(n) at
// compile time; without it the error raises in the cell.
func (c *Compiled) Manifest() string {
	text, err := c.ManifestText()
	if err != nil {
		dsl.Raise(err)
	}
	return text
}

// ManifestText is Manifest returning the error.
func (c *Compiled) ManifestText() (string, error) {
	m, err := manifest.FromProgram(c.Final(), c.ranks)
	if err != nil {
		return "", fmt.Errorf("comm manifest: %w", err)
	}
	if m == nil {
		return "", nil
	}
	return string(m.JSON()), nil
}

// WriteTo writes one <function>.pto file per InCore function and, when the
// program has comm groups, orchestration/comm_manifest.json under dir; it
// returns the paths written.
func (c *Compiled) WriteTo(dir string) ([]string, error) {
	if c.ptoErr != nil {
		return nil, fmt.Errorf("PTO codegen: %w", c.ptoErr)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	for _, m := range c.modules {
		p := filepath.Join(dir, m.Function+".pto")
		if err := os.WriteFile(p, []byte(m.Text), 0o644); err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	m, err := manifest.FromProgram(c.Final(), c.ranks)
	if err != nil {
		return nil, fmt.Errorf("comm manifest: %w", err)
	}
	if m != nil {
		if err := manifest.Write(dir, m); err != nil {
			return nil, err
		}
		paths = append(paths, filepath.Join(dir, manifest.Path))
	}
	return paths, nil
}

// String lists the stages, marking the passes that changed the program.
func (c *Compiled) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "compiled %s: %d passes\n", c.input.Name, len(c.stages)-1)
	for i, s := range c.stages[1:] {
		mark := "unchanged"
		if s.Changed {
			mark = fmt.Sprintf("+%d -%d lines", countLines(s.Diff, '+'), countLines(s.Diff, '-'))
		}
		fmt.Fprintf(&b, "  %2d %-27s %s\n", i+1, s.Name, mark)
	}
	for _, w := range c.warnings {
		fmt.Fprintf(&b, "%s\n", w)
	}
	if c.ptoErr != nil {
		fmt.Fprintf(&b, "  PTO codegen: %v\n", c.ptoErr)
	} else {
		fmt.Fprintf(&b, "  PTO-MLIR: %d InCore modules (c.PTO())\n", len(c.modules))
	}
	return strings.TrimRight(b.String(), "\n")
}

func countLines(diff string, sign byte) int {
	n := 0
	for _, l := range strings.Split(diff, "\n") {
		if len(l) > 0 && l[0] == sign && !strings.HasPrefix(l, "+++") && !strings.HasPrefix(l, "---") {
			n++
		}
	}
	return n
}

// Run executes the lowered program on the default device, like pl.Run does
// for the program as written.
func (c *Compiled) Run(ranks RunOption, args ...*tensor.Tensor) (*RunResult, error) {
	return runIR(c.Final(), ranks, args)
}

// Differential runs every stage that changed the program on copies of args
// and compares its outputs with the input program's. It returns the first
// pass whose result differs, or a Difference that prints "no pass differs"
// (d.None()) when all agree.
func (c *Compiled) Differential(ranks RunOption, args ...*tensor.Tensor) (Difference, error) {
	run := func(s Stage) ([]*tensor.Tensor, error) {
		cp := make([]*tensor.Tensor, len(args))
		for i, a := range args {
			cp[i] = a.Clone()
		}
		_, err := Device.Run(dsl.Context(), s.program, cp, runtime.RunOptions{Ranks: ranks.ranks, Watchdog: ranks.watchdog, Cores: ranks.cores, Callbacks: ranks.callbacks})
		return cp, err
	}
	want, err := run(c.stages[0])
	if err != nil {
		return Difference{}, fmt.Errorf("the input program: %w", err)
	}
	for _, s := range c.stages[1:] {
		if !s.Changed {
			continue
		}
		got, err := run(s)
		if err != nil {
			return Difference{Pass: s.Name, Why: fmt.Sprintf("the program fails: %v", err)}, nil
		}
		for i := range got {
			if !got[i].AllClose(want[i], 1e-5, 1e-6) {
				return Difference{Pass: s.Name, Why: fmt.Sprintf("argument %d differs from the input program's result", i)}, nil
			}
		}
	}
	return Difference{}, nil
}

// HTML renders the stages as a collapsible list for notebooks: each pass
// that changed the program opens to its diff (added lines green, removed
// red), unchanged passes are folded into one line, and the PTO and the
// manifest follow.
func (c *Compiled) HTML() string {
	var b strings.Builder
	b.WriteString(`<div class="ptorepl-compiled"><style>.ptorepl-compiled pre{margin:0 0 0 1em;font-size:12px}` +
		`.ptorepl-compiled .add{background:#e6ffec}.ptorepl-compiled .del{background:#ffebe9}.ptorepl-compiled .hunk{color:#6f42c1}` +
		`.ptorepl-compiled summary{cursor:pointer;font-family:monospace}</style>`)
	fmt.Fprintf(&b, "<b>%s</b>: %d passes<br>", html.EscapeString(c.input.Name), len(c.stages)-1)
	for _, w := range c.warnings {
		fmt.Fprintf(&b, `<div class="warning" style="font-family:monospace;color:#9a6700">%s</div>`, html.EscapeString(w))
	}
	fmt.Fprintf(&b, "<details><summary>Input</summary>%s</details>", ProgramHTML(c.stages[0].Text))
	for i, s := range c.stages[1:] {
		if !s.Changed {
			fmt.Fprintf(&b, `<div style="font-family:monospace;color:#888">%2d %s: unchanged</div>`, i+1, html.EscapeString(s.Name))
			continue
		}
		fmt.Fprintf(&b, "<details><summary>%2d %s (+%d -%d)</summary><pre>", i+1, html.EscapeString(s.Name),
			countLines(s.Diff, '+'), countLines(s.Diff, '-'))
		for _, l := range strings.Split(strings.TrimSuffix(s.Diff, "\n"), "\n") {
			class := ""
			switch {
			case strings.HasPrefix(l, "@@"):
				class = "hunk"
			case strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++"):
				class = "add"
			case strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---"):
				class = "del"
			}
			fmt.Fprintf(&b, `<span class="%s">%s</span>`+"\n", class, html.EscapeString(l))
		}
		b.WriteString("</pre></details>")
	}
	if text, err := c.PTOText(); err == nil {
		fmt.Fprintf(&b, "<details><summary>PTO-MLIR</summary><pre>%s</pre></details>", html.EscapeString(text))
	} else {
		fmt.Fprintf(&b, "<div>PTO codegen: %s</div>", html.EscapeString(err.Error()))
	}
	if text, err := c.ManifestText(); err == nil && text != "" {
		fmt.Fprintf(&b, "<details><summary>comm manifest</summary><pre>%s</pre></details>", html.EscapeString(text))
	}
	b.WriteString("</div>")
	return b.String()
}
