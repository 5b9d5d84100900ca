package interp_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
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

// confEnv selects a mode in the child process: "MODE FILE".
const confEnv = "PTOREPL_CONFORMANCE_CHILD"

func TestMain(m *testing.M) {
	if spec := os.Getenv(confEnv); spec != "" {
		mode, file, _ := strings.Cut(spec, " ")
		os.Exit(confChild(mode, file))
	}
	os.Exit(m.Run())
}

// confChild runs one program in one mode, printing its standard output.
func confChild(mode, file string) int {
	src, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if mode == "ref" {
		i := yaegi.New(yaegi.Options{GoPath: build.Default.GOPATH})
		if err := i.Use(stdlib.Symbols); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		if _, err := i.EvalPath(file); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	}
	cells, err := programCells(string(src), mode == "stmts")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	s, err := interp.New(interp.Options{Args: []string{file}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	for _, c := range cells {
		r, err := s.Eval(context.Background(), c)
		if r != nil {
			os.Stdout.WriteString(r.Stdout())
			os.Stderr.WriteString(r.Stderr())
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			var ce *interp.CellError
			if errors.As(err, &ce) && ce.Kind == "exit" {
				return ce.ExitCode
			}
			return 1
		}
	}
	return 0
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
// Yaegi runs them whole, with the reason.
var acceptedDifferences = map[string]string{}

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
	jobs := make(chan job)
	var wg sync.WaitGroup
	workers := runtime.NumCPU()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				pr := progs[j.p]
				out := runChild(modes[j.m], pr.path)
				res := strings.TrimSpace(strings.ReplaceAll(out, pr.path+":", ""))
				pass[j.p][j.m] = res == pr.want
				got[j.p][j.m] = res
			}
		}()
	}
	for p := range progs {
		for m := range modes {
			jobs <- job{p, m}
		}
	}
	close(jobs)
	wg.Wait()
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
	t.Logf("passing: yaegi whole program %d, declarations + main() %d, main's body as top-level statements %d", counts[0], counts[1], counts[2])
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

// runChild runs one program in a child process with a time limit; a hang
// counts as a failure and never hangs the test.
func runChild(mode, path string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), confEnv+"="+mode+" "+path)
	cmd.Dir = filepath.Dir(path)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.WaitDelay = time.Second
	cmd.Run()
	return out.String()
}
