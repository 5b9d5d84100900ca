package interp

import (
	"context"
	"fmt"
	"github.com/ptorepl/ptorepl/checker"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/verify"
)

// Front-ends step programs through the pass pipeline with these helpers, so
// the REPL's :step and the kernel's stage view behave the same.

// PassInfo names one pass of the pipeline.
type PassInfo struct {
	Name string
	Doc  string
}

// Passes lists the pipeline's passes in order.
func Passes() []PassInfo {
	var out []PassInfo
	for _, p := range passes.Table() {
		out = append(out, PassInfo{Name: p.Name, Doc: p.Doc})
	}
	return out
}

// Stepper walks one program through the pipeline a pass at a time.
type Stepper struct {
	prog *ir.Program
	pp   *passes.Pipeline
}

// NewStepper starts stepping p.
func NewStepper(p *ir.Program) *Stepper {
	return &Stepper{prog: p, pp: passes.NewPipeline(p)}
}

// Program is the program being stepped (as it was given).
func (s *Stepper) Program() *ir.Program { return s.prog }

// Step runs the next pass; ok is false when every pass has run.
func (s *Stepper) Step() (st passes.Stage, ok bool, err error) { return s.pp.Step() }

// Stages lists the input and the stages produced so far.
func (s *Stepper) Stages() []passes.Stage { return s.pp.Stages() }

// Stage finds a stage by index (0 is the input) or by pass name, running
// the pipeline as far as needed.
func (s *Stepper) Stage(key string) (passes.Stage, error) {
	for {
		for i, st := range s.pp.Stages() {
			if fmt.Sprint(i) == key || strings.EqualFold(st.Name, key) {
				return st, nil
			}
		}
		_, ok, err := s.pp.Step()
		if err != nil {
			return passes.Stage{}, err
		}
		if !ok {
			return passes.Stage{}, fmt.Errorf("no stage %q: give 0..%d or a pass name (:passes lists them)", key, len(s.pp.Stages())-1)
		}
	}
}

// Warnings are the post-pipeline verifier's findings on the lowered program
// (ParamDirectionsSound), one line each; nil until every pass has run.
func (s *Stepper) Warnings() []string {
	if !s.pp.Done() || len(s.pp.Stages()) != len(s.pp.Passes())+1 {
		return nil
	}
	var out []string
	for _, d := range verify.PostPipeline(s.pp.Current().Program) {
		out = append(out, d.String())
	}
	return out
}

// Lowered runs the rest of the pipeline and returns the final program.
func (s *Stepper) Lowered() (*ir.Program, error) {
	st, err := s.pp.Run()
	return st.Program, err
}

// PTOText lowers p fully and returns the PTO-MLIR of its InCore functions.
func PTOText(p *ir.Program) (string, error) {
	c, err := pl.CompileIR(p)
	if err != nil {
		return "", err
	}
	text, err := c.PTOText()
	if err == nil && text == "" {
		err = fmt.Errorf("the program has no InCore function to generate PTO for")
	}
	return text, err
}

// ManifestText lowers p fully and returns its comm manifest; ranks resolves
// sizes that depend on the world size (0: unknown).
func ManifestText(p *ir.Program, ranks int) (string, error) {
	c, err := pl.CompileIR(p, rankOpts(ranks)...)
	if err != nil {
		return "", err
	}
	text, err := c.ManifestText()
	if err == nil && text == "" {
		err = fmt.Errorf("the program has no comm groups, so no manifest")
	}
	return text, err
}

// RunRandom runs p on the simulator with seeded random inputs: In tensors
// from tensor.Randn, Out tensors zeroed. Dynamic dimensions (NR) take the
// rank count. It returns the host tensors after the run, the result (nil
// only when the program never started) and the protocol checker's report.
func RunRandom(ctx context.Context, p *ir.Program, ranks int) ([]*tensor.Tensor, []string, *runtime.Result, *checker.Report, error) {
	return RunRandomOn(ctx, p, ranks, "", runtime.DeviceConfig{})
}

// RunRandomOn is RunRandom on the device called device ("": pl.Device,
// the simulator unless a front-end chose another).
func RunRandomOn(ctx context.Context, p *ir.Program, ranks int, device string, c runtime.DeviceConfig) ([]*tensor.Tensor, []string, *runtime.Result, *checker.Report, error) {
	return RunRandomWith(ctx, p, ranks, RandomRun{Device: device, Config: c})
}

// RandomRun is how RunRandomWith runs: on which device, with how many
// cores per device, and whether in the relaxed memory mode.
type RandomRun struct {
	Device  string // "": pl.Device
	Config  runtime.DeviceConfig
	Relaxed bool // the weak memory model (docs/memory-model.md); simulator only
	Cores   int  // AIV cores per simulated device (0: runtime.DefaultCores)
	// Dims sizes named dynamic dimensions of the host's parameters
	// (runtime.HostArgsSized); the others take the rank count.
	Dims map[string]int
}

// RunRandomWith is RunRandom as o says.
func RunRandomWith(ctx context.Context, p *ir.Program, ranks int, o RandomRun) ([]*tensor.Tensor, []string, *runtime.Result, *checker.Report, error) {
	dev := pl.Device
	if device, c := o.Device, o.Config; device != "" {
		d, err := runtime.OpenDevice(device, c)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		dev = d
	}
	if ranks <= 0 {
		ranks = 2
	}
	args, names, err := runtime.HostArgsSized(p, ranks, 1, o.Dims)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	res, rep, err := checker.Run(ctx, p, args, checker.Options{Ranks: ranks, Device: dev, Relaxed: o.Relaxed, Cores: o.Cores})
	return args, names, res, rep, err
}

// WriteCompiled lowers p and writes one <function>.pto per InCore function
// and, when p has comm groups, orchestration/comm_manifest.json under dir.
func WriteCompiled(p *ir.Program, dir string, ranks int) ([]string, error) {
	c, err := pl.CompileIR(p, rankOpts(ranks)...)
	if err != nil {
		return nil, err
	}
	return c.WriteTo(dir)
}

// Warnings lowers p and returns the post-pipeline verifier's warnings, one
// line each.
func Warnings(p *ir.Program) ([]string, error) {
	lowered, err := passes.Lower(p)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range verify.PostPipeline(lowered) {
		out = append(out, d.String())
	}
	return out, nil
}

// rankOpts is pl.Ranks(ranks), or nothing when the rank count is not known
// (0), which pl.Ranks would reject.
func rankOpts(ranks int) []pl.CompileOption {
	if ranks == 0 {
		return nil
	}
	return []pl.CompileOption{pl.Ranks(ranks)}
}
