package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ptorepl/ptorepl/interp"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/runtime"
)

// isPython reports whether the command's files are PyPTO Python.
func isPython(args []string) bool {
	for _, a := range args {
		if strings.HasSuffix(a, ".py") {
			return true
		}
	}
	return false
}

// runPython prints every program of a PyPTO file; with --entry it runs
// that program on --ranks simulated ranks, on seeded random inputs, and
// prints the outputs.
func runPython(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	entry := fs.String("entry", "", "the program to run (a class, a @pl.jit.host entry, or a factory with --args)")
	fargs := fs.String("args", "", "a factory entry's arguments, comma-separated (4,true,2.5,name); a @pl.jit entry's, tensors as shapes (16x16:fp32,16x16:fp32,2.0)")
	ranks := fs.Int("ranks", 2, "simulated rank count for --entry")
	cores := fs.Int("cores", runtime.DefaultCores, "AIV cores per simulated device for --entry")
	seed := fs.Int64("seed", 1, "seed of the random inputs")
	device := fs.String("device", "", "the device --entry runs on: sim (default) or mpi")
	hosts := fs.String("hosts", "", "with --device mpi: the machines ranks run on (mpirun --host list, e.g. node1:4,node2:4)")
	hostfile := fs.String("hostfile", "", "with --device mpi: an mpirun hostfile")
	dimsFlag := fs.String("dims", "", "with --entry: sizes of dynamic dimensions, M=64,N=128 (the others take the rank count)")
	relaxed := fs.Bool("relaxed", false, "run --entry on the weak memory model (unfenced writes, overtaking signals, stale cache lines); simulator only")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: ptorepl run [--entry NAME [--args A,B,...] [--ranks N] [--cores K] [--seed S] [--dims M=64,N=128] [--relaxed] [--device sim|mpi [--hosts LIST | --hostfile FILE]]] FILE.py")
		fs.PrintDefaults()
	}
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(files) != 1 {
		fs.Usage()
		return 2
	}
	if err := ranksGiven(fs, "ptorepl run", *ranks); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if err := runtime.CheckCores("ptorepl run", "--cores", *cores); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	mod, err := pl.LoadPython(files[0])
	if err != nil {
		fmt.Fprintf(stderr, "ptorepl: %v\n", err)
		return 1
	}
	if *entry == "" {
		if why := mod.NoPrograms(); why != "" {
			fmt.Fprintf(stderr, "ptorepl: %s\n", why)
			return 1
		}
		fmt.Fprintln(stdout, mod)
		// An entry that could not be built prints as a comment above; it
		// is also an error of the command.
		code := 0
		for _, n := range mod.Names() {
			if mod.IsFactory(n) {
				continue
			}
			if _, err := mod.Program(n); err != nil {
				fmt.Fprintf(stderr, "ptorepl: %v\n", err)
				code = 1
			}
		}
		return code
	}
	prog, err := entryProgram(mod, *entry, *fargs)
	if err != nil {
		fmt.Fprintf(stderr, "ptorepl: %v\n", err)
		return 1
	}
	// The function the run starts from: the host orchestrator, or the one
	// the simulator writes for a one-device program (its chip
	// orchestrator's parameters, directions included).
	host, _ := runtime.HostOf(prog.IR())
	dims, err := runtime.ParseDims(*dimsFlag)
	if err != nil {
		fmt.Fprintf(stderr, "ptorepl: --%v\n", err)
		return 1
	}
	targs, names, err := runtime.HostArgsSized(prog.IR(), *ranks, *seed, dims)
	if err != nil {
		fmt.Fprintf(stderr, "ptorepl: %v\n", err)
		return 1
	}
	ro := pl.Ranks(*ranks).Cores(*cores)
	if *device != "" {
		ro = ro.On(pl.DeviceNamed(*device).Hosts(*hosts).Hostfile(*hostfile))
	}
	if *relaxed {
		ro = ro.Relaxed()
	}
	res, err := pl.Run(prog, ro, targs...)
	if err != nil {
		fmt.Fprintf(stderr, "ptorepl: %v\n", err)
		return 1
	}
	for i, t := range targs {
		if host != nil && host.Direction(i) == ir.In {
			continue
		}
		fmt.Fprintf(stdout, "%s = %s\n", names[i], t)
	}
	showReturned(stdout, res.Outputs(), targs)
	if rep := res.Report(); rep != nil {
		if s := strings.TrimSpace(fmt.Sprint(rep)); s != "" {
			fmt.Fprintln(stdout, s)
		}
	}
	return 0
}

// entryProgram is the module's program called name, what the factory
// called name builds from args (comma-separated; each an int, a float,
// true/false or else a string, as mod.Call takes them), or the @pl.jit
// entry called name specialized on args as a call would (a tensor written
// as its shape and dtype, 16x16:fp32, and numbers for scalars, as
// mod.Specialize takes them).
func entryProgram(mod *pl.Module, name, args string) (*pl.Program, error) {
	if !mod.IsFactory(name) {
		if args == "" {
			return mod.Program(name)
		}
		var vals []interface{}
		for _, a := range strings.Split(args, ",") {
			v, err := entryArg(strings.TrimSpace(a))
			if err != nil {
				return nil, fmt.Errorf("--args: %v", err)
			}
			vals = append(vals, v)
		}
		p, err := mod.Specialize(name, vals...)
		if err != nil {
			return nil, fmt.Errorf("--args: %v", err)
		}
		return p, nil
	}
	var vals []interface{}
	if strings.TrimSpace(args) != "" {
		for _, a := range strings.Split(args, ",") {
			vals = append(vals, factoryArg(strings.TrimSpace(a)))
		}
	}
	return mod.Call(name, vals...)
}

// entryArg is one argument of a @pl.jit entry: a tensor type written
// DIMSxDIMS:dtype (16x16:fp32), else a factory argument.
func entryArg(a string) (interface{}, error) {
	shape, dt, ok := strings.Cut(a, ":")
	if !ok {
		return factoryArg(a), nil
	}
	var dtype pl.DataType
	for _, d := range ir.AllDataTypes() {
		if strings.EqualFold(d.Name(), dt) {
			dtype = d
		}
	}
	if !dtype.Valid() || dtype == ir.BOOL && !strings.EqualFold(dt, "bool") {
		return nil, fmt.Errorf("%q: unknown dtype %q (fp32, fp16, bf16, int32, ...)", a, dt)
	}
	var dims []interface{}
	for _, d := range strings.Split(shape, "x") {
		n, err := strconv.Atoi(d)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%q: a tensor is written as its dimensions and dtype, 16x16:fp32", a)
		}
		dims = append(dims, n)
	}
	return pl.Tensor(pl.Dims(dims...), dtype), nil
}

func factoryArg(a string) interface{} {
	if n, err := strconv.Atoi(a); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(a, 64); err == nil {
		return f
	}
	switch a {
	case "true", "True":
		return true
	case "false", "False":
		return false
	}
	return a
}

// compilePython lowers one program of a PyPTO file and writes its PTO and
// comm manifest to --out (or prints the PTO).
func compilePython(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compile", flag.ContinueOnError)
	fs.SetOutput(stderr)
	entry := fs.String("entry", "", "the program to compile (required when the file has several)")
	fargs := fs.String("args", "", "a factory entry's arguments, comma-separated (4,true,2.5,name); a @pl.jit entry's, tensors as shapes (16x16:fp32,16x16:fp32,2.0)")
	out := fs.String("out", "", "directory for <kernel>.pto files and orchestration/comm_manifest.json")
	ranks := fs.Int("ranks", 0, "rank count, to resolve window sizes that depend on the world size")
	stages := fs.Bool("stages", false, "print the diff of every pass that changed the program")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: ptorepl compile [--entry NAME [--args A,B,...]] [--out DIR] [--ranks N] [--stages] FILE.py")
		fs.PrintDefaults()
	}
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(files) != 1 {
		fs.Usage()
		return 2
	}
	if err := ranksGiven(fs, "ptorepl compile", *ranks); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	mod, err := pl.LoadPython(files[0])
	if err != nil {
		fmt.Fprintf(stderr, "ptorepl: %v\n", err)
		return 1
	}
	name := *entry
	if name == "" {
		if names := mod.Names(); len(names) == 1 {
			name = names[0]
		} else if why := mod.NoPrograms(); why != "" {
			fmt.Fprintf(stderr, "ptorepl compile: %s\n", why)
			return 1
		} else {
			fmt.Fprintf(stderr, "ptorepl compile: %s has %d programs (%s); pick one with --entry\n", files[0], len(names), strings.Join(names, ", "))
			return 2
		}
	}
	prog, err := entryProgram(mod, name, *fargs)
	if err != nil {
		fmt.Fprintf(stderr, "ptorepl: %v\n", err)
		return 1
	}
	if *stages && !printStages(prog.IR(), stdout, stderr) {
		return 1
	}
	if *out == "" {
		text, err := interp.PTOText(prog.IR())
		if err != nil {
			fmt.Fprintf(stderr, "ptorepl compile: %v\n", err)
			return 1
		}
		fmt.Fprint(stdout, ensureNewline(text))
		return 0
	}
	paths, err := interp.WriteCompiled(prog.IR(), *out, *ranks)
	if err != nil {
		fmt.Fprintf(stderr, "ptorepl compile: %v\n", err)
		return 1
	}
	for _, p := range paths {
		fmt.Fprintln(stdout, "wrote", p)
	}
	return 0
}

// pythonCommands are the REPL's PyPTO Python commands.
func pythonCommands() map[string]metaCommand {
	return map[string]metaCommand{
		"load": {args: "FILE.py [NAME]", help: "read a PyPTO Python file into a module bound to NAME (default mod)", run: (*repl).cmdLoad},
	}
}

func (r *repl) cmdLoad(arg string) error {
	fields := strings.Fields(arg)
	if len(fields) == 0 || len(fields) > 2 || !strings.HasSuffix(fields[0], ".py") {
		return fmt.Errorf("usage: :load FILE.py [NAME]")
	}
	name := "mod"
	if len(fields) == 2 {
		name = fields[1]
	}
	// Read it here first: a bad file reports file:line:col and binds
	// nothing. The cell then loads the file itself, so the files beside it
	// that it imports are read from its directory.
	mod, err := pl.LoadPython(fields[0])
	if err != nil {
		return err
	}
	if ok, _ := r.eval(interp.LoadPythonFile(name, fields[0])); !ok {
		return fmt.Errorf("could not bind %s", name)
	}
	// A file of one program is what :step, :run and :pto then take, as
	// if the user had asked the module for it.
	var progs []string
	for _, n := range mod.Names() {
		if !mod.IsFactory(n) {
			progs = append(progs, n)
		}
	}
	if len(progs) == 1 {
		if _, err := mod.Program(progs[0]); err == nil {
			fmt.Fprintf(r.out, "%s is the last program: :step, :run and :pto take it\n", progs[0])
		}
	}
	return nil
}

// errNoProgram is the answer of a command that needs a program before
// there is one.
var errNoProgram = errors.New(`no program yet: build one with pl.NewProgram, or take one from a :load-ed module with mod.Program("Name")`)
