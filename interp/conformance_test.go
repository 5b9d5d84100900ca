package interp_test

import (
	"bufio"
	"context"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/interp"
	yaegi "github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// The conformance test runs the programs of Yaegi's own test corpus (the
// _test directory of the module version go.mod pins) three ways, each in a
// child process of this test binary so a crash or hang costs one program:
//
//   - ref: Yaegi on the whole file, as its command-line tool runs it;
//   - decls: a session with the file's declarations as one cell and `main()`
//     as the next;
//   - stmts: a session with the declarations other than main as one cell and
//     main's body as the next, typed as top-level statements.
//
// A program passes when its standard output is its `// Output:` block.

// confEnv selects a mode in a child process, which reads program paths on
// stdin and answers each with "=== INDEX LENGTH" and the program's stdout.
const confEnv = "PTOREPL_CONFORMANCE_CHILD"

func TestMain(m *testing.M) {
	if mode := os.Getenv(confEnv); mode != "" {
		os.Exit(confChild(mode))
	}
	os.Exit(m.Run())
}

// confChild runs programs one after another in one mode; a crash or hang
// is the parent's to notice (it restarts a child after that program).
func confChild(mode string) int {
	proto := os.Stdout
	sc := bufio.NewScanner(os.Stdin)
	for idx := 0; sc.Scan(); idx++ {
		out := runOne(mode, sc.Text())
		fmt.Fprintf(proto, "=== %d %d\n%s", idx, len(out), out)
	}
	return 0
}

// runOne runs one program and returns what it wrote to stdout.
func runOne(mode, file string) string {
	tmp, err := os.CreateTemp("", "conformance")
	if err != nil {
		return err.Error()
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	saved := os.Stdout
	os.Stdout = tmp
	func() {
		defer func() { recover() }()
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
		defer cancel()
		runMode(ctx, mode, file, tmp)
	}()
	os.Stdout = saved
	b, _ := os.ReadFile(tmp.Name())
	return string(b)
}

func runMode(ctx context.Context, mode, file string, out *os.File) {
	src, err := os.ReadFile(file)
	if err != nil {
		return
	}
	if mode == "ref" {
		i := yaegi.New(yaegi.Options{GoPath: build.Default.GOPATH, Stdout: out, Stderr: io.Discard})
		if err := i.Use(stdlib.Symbols); err != nil {
			return
		}
		i.EvalPath(file)
		return
	}
	cells, err := programCells(string(src), mode == "stmts")
	if err != nil {
		return
	}
	s, err := interp.New(interp.Options{Args: []string{file}})
	if err != nil {
		return
	}
	for _, c := range cells {
		r, err := s.Eval(ctx, c)
		if r != nil {
			out.WriteString(r.Stdout())
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err) // for a person running a child by hand
			return
		}
	}
}

// programCells cuts a package main program into cells: its declarations
// (without the package clause) and then either `main()` or, with stmts,
// main's body as top-level statements (main itself left out of the first).
func programCells(src string, stmts bool) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "prog.go", src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	// Blank the package clause so lines keep their numbers.
	pkgEnd := off(f.Name.End())
	decls := strings.Repeat(" ", pkgEnd) + src[pkgEnd:]
	if !stmts {
		return []string{decls, "main()"}, nil
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Name.Name != "main" || fd.Body == nil {
			continue
		}
		lo, hi := off(fd.Pos()), off(fd.End())
		if fd.Doc != nil {
			lo = off(fd.Doc.Pos())
		}
		body := src[off(fd.Body.Lbrace)+1 : off(fd.Body.Rbrace)]
		return []string{decls[:lo] + decls[hi:], body}, nil
	}
	return nil, fmt.Errorf("no func main")
}

// corpusProgram is one program of the corpus and its expected output.
type corpusProgram struct {
	path, name, want string
}

// yaegiCorpus lists the corpus programs with an Output block that import
// only the standard library.
func yaegiCorpus(t *testing.T) []corpusProgram {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/traefik/yaegi").Output()
	if err != nil {
		t.Fatalf("locating the yaegi module (go list -m): %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "_test")
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus under %s: %v", dir, err)
	}
	var progs []corpusProgram
	for _, p := range files {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil || f.Name.Name != "main" || len(f.Comments) == 0 {
			continue
		}
		text := f.Comments[len(f.Comments)-1].Text()
		if !strings.HasPrefix(text, "Output:\n") {
			continue
		}
		std := true
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") || path == "C" {
				std = false
			}
			if _, ok := stdlib.Symbols[path+"/"+filepath.Base(path)]; !ok && path != "unsafe" {
				std = false
			}
		}
		if !std {
			continue
		}
		progs = append(progs, corpusProgram{path: p, name: filepath.Base(p), want: strings.TrimSpace(strings.TrimPrefix(text, "Output:\n"))})
	}
	return progs
}

// acceptedDifferences are corpus programs the cells forms may fail although
// Yaegi runs them whole, with the reason. Keys are "MODE FILE".
var acceptedDifferences = map[string]string{}

func init() {
	accept := func(reason string, keys ...string) {
		for _, k := range keys {
			acceptedDifferences[k] = reason
		}
	}
	accept("the program's Output expects pre-Go-1.22 loop variables (closures see the last value); cells give each iteration its own variable, as Go 1.22 does",
		"decls closure9.go", "stmts closure9.go", "decls closure10.go", "stmts closure10.go",
		"decls closure11.go", "stmts closure11.go", "decls closure12.go", "stmts closure12.go")
	accept("`<-ch && true` is false under Yaegi's cancellable channel receive, which sessions use so a cell can be interrupted (Yaegi v0.16.1 bug, not the transformation)",
		"decls chan8.go", "stmts chan8.go")
	accept("the Output holds panic positions with columns: location calls share the line and shift columns (lines are kept); as cells, lines are also cell-relative",
		"decls type24.go", "stmts type24.go")
	accept("a top-level := of a name also declared at package level redefines the session's variable: cells and declarations share one scope",
		"stmts scope2.go")
	accept("Yaegi's global scope mistypes these top-level := forms (a composite literal keyed by constants, the address of an element, an untyped nil comparison, rune constant arithmetic); they work inside a function",
		"stmts a29.go", "stmts addr1.go", "stmts issue-1177.go", "stmts issue-1496.go", "stmts rune0.go")
	accept("Yaegi's global scope cannot instantiate a generic function in a top-level statement; inside a function it can",
		"stmts gen3.go", "stmts gen5.go", "stmts issue-1460.go")
	accept("recover() called as a top-level statement, outside any deferred function, crashes Yaegi's global frame",
		"stmts recover2.go", "stmts recover3.go")
	accept("a top-level var declaration among the statements of a cell with a top-level defer is a session declaration: it cannot see the variables of the function the statements run in",
		"stmts issue-1330.go")
	accept("a method called through an embedded field of a top-level variable is not found by Yaegi's global scope",
		"stmts issue-1515.go")
}

func TestYaegiCorpusConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several hundred programs three ways")
	}
	progs := yaegiCorpus(t)
	modes := []string{"ref", "decls", "stmts"}
	type job struct{ p, m int }
	pass := make([][]bool, len(progs))
	got := make([][]string, len(progs))
	for i := range pass {
		pass[i] = make([]bool, len(modes))
		got[i] = make([]string, len(modes))
	}
	// Each mode's programs are cut in chunks; a worker runs a chunk through
	// children of this binary, restarting after a crash or a hang.
	jobs := make(chan job)
	var wg sync.WaitGroup
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				idx := []int{}
				for p := j.p; p < len(progs) && p < j.p+chunk; p++ {
					idx = append(idx, p)
				}
				outs := runChildren(modes[j.m], progs, idx)
				for k, p := range idx {
					res := strings.TrimSpace(strings.ReplaceAll(outs[k], progs[p].path+":", ""))
					pass[p][j.m] = res == progs[p].want
					got[p][j.m] = res
				}
			}
		}()
	}
	for m := range modes {
		for p := 0; p < len(progs); p += chunk {
			jobs <- job{p, m}
		}
	}
	close(jobs)
	wg.Wait()
	// Some corpus programs depend on timing (select with timers, sleeps);
	// on a loaded machine a batch can miss their deadlines. A cells-form
	// failure where the reference passed is run again alone, twice at most,
	// before it counts: a real difference fails every time.
	for p, pr := range progs {
		for m := 1; m < len(modes); m++ {
			if !pass[p][0] || pass[p][m] {
				continue
			}
			if _, ok := acceptedDifferences[modes[m]+" "+pr.name]; ok {
				continue
			}
			for try := 0; try < 2 && !pass[p][m]; try++ {
				res := strings.TrimSpace(strings.ReplaceAll(runChildren(modes[m], progs, []int{p})[0], pr.path+":", ""))
				pass[p][m], got[p][m] = res == pr.want, res
				if pass[p][m] {
					t.Logf("%s %s passed when run again alone (timing under load)", modes[m], pr.name)
				}
			}
		}
	}
	counts := make([]int, len(modes))
	var regress []string
	for p, pr := range progs {
		for m := range modes {
			if pass[p][m] {
				counts[m]++
			}
			if m > 0 && pass[p][0] && !pass[p][m] {
				key := modes[m] + " " + pr.name
				if _, ok := acceptedDifferences[key]; !ok {
					regress = append(regress, key)
				}
			}
		}
	}
	t.Logf("yaegi corpus: %d programs with an Output block importing only the standard library", len(progs))
	t.Logf("passing: yaegi whole program %d, declarations + main() %d, main's body as top-level statements %d (accepted differences: %d)", counts[0], counts[1], counts[2], len(acceptedDifferences))
	if os.Getenv("PTOREPL_CONFORMANCE_VERBOSE") != "" {
		for p, pr := range progs {
			for m := 1; m < len(modes); m++ {
				if pass[p][0] && !pass[p][m] {
					t.Logf("%s %s: got %q", modes[m], pr.name, got[p][m])
				}
			}
		}
	}
	sort.Strings(regress)
	if len(regress) > 0 {
		t.Errorf("%d programs Yaegi runs whole fail as cells and are not accepted differences:\n%s", len(regress), strings.Join(regress, "\n"))
	}
}

// chunk is how many programs one worker job runs.
const chunk = 100

// runChildren runs the programs idx in one mode and returns their outputs.
// A child that dies or goes quiet for longer than a program may take costs
// the program it was on (output "") and a new child takes the rest.
func runChildren(mode string, progs []corpusProgram, idx []int) []string {
	outs := make([]string, len(idx))
	for next := 0; next < len(idx); {
		next += runChild(mode, progs, idx[next:], outs[next:])
	}
	return outs
}

// runChild starts one child on idx and fills outs; it returns how many
// programs it accounted for (at least one).
func runChild(mode string, progs []corpusProgram, idx []int, outs []string) int {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), confEnv+"="+mode)
	var in strings.Builder
	for _, p := range idx {
		in.WriteString(progs[p].path + "\n")
	}
	cmd.Stdin = strings.NewReader(in.String())
	cmd.Stderr = io.Discard
	cmd.Dir = os.TempDir()
	stdout, err := cmd.StdoutPipe()
	if err != nil || cmd.Start() != nil {
		return len(idx)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	type res struct {
		k   int
		out string
	}
	results := make(chan res, len(idx))
	go func() {
		defer close(results)
		br := bufio.NewReader(stdout)
		for {
			var k, n int
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			if _, err := fmt.Sscanf(line, "=== %d %d", &k, &n); err != nil {
				return
			}
			buf := make([]byte, n)
			if _, err := io.ReadFull(br, buf); err != nil {
				return
			}
			results <- res{k, string(buf)}
		}
	}()
	done := 0
	for {
		select {
		case r, ok := <-results:
			if !ok {
				if done < len(idx) {
					return done + 1 // it died on program done
				}
				return done
			}
			outs[r.k] = r.out
			done = r.k + 1
			if done == len(idx) {
				return done
			}
		case <-time.After(8 * time.Second):
			return done + 1 // it hangs on program done
		}
	}
}
