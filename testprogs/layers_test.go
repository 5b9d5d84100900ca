package testprogs_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// The layering test: every package of the module sits in one layer, and a
// package's non-test imports reach only lower layers, or a same-layer package
// through an edge listed in sameLayer. docs/architecture.md describes the same
// order; a new package must be placed here (the test fails until it is).
//
// Tests are left out on purpose: an external test package may import anything,
// and Go already rejects an in-package test that would close a cycle.

const module = "github.com/ptorepl/ptorepl"

// layerOf gives each package (path relative to the module) its layer, lowest
// first. The edges were measured with `go list -json ./...` before encoding.
var layerOf = map[string]int{
	// 0: the IR and its op registry, which everything else builds on.
	"ir": 0,
	// 1: the core that consumes IR: host tensors, printing, checking,
	// lowering, codegen, manifest and the simulator.
	"tensor": 1, "printer": 1, "verify": 1, "passes": 1, "pto": 1, "manifest": 1, "runtime": 1,
	"internal/mlirtool": 1, "internal/suggest": 1,
	// 2: what works on the core's results, and what the DSL shares beneath pl/pld.
	"checker": 2, "display": 2, "pyfront": 2, "internal/dsl": 2, "mpidev": 2,
	// 3: the DSL cells call.
	"pl": 3, "pld": 3,
	// 4: built with the DSL: test programs, the benchmarks, the Yaegi session.
	"testprogs": 4, "bench": 4, "interp/symbols": 4, "interp": 4,
	// 5: commands and front ends.
	"kernel": 5, "cmd/ptorepl": 5, "bench/cmd/simbench": 5, "interp/internal/gendoc": 5, "notebooks": 5,
}

var layerNames = []string{"ir", "core", "beside core", "dsl", "built on dsl", "top"}

// sameLayer lists the edges allowed inside one layer (importer -> imported).
var sameLayer = map[[2]string]bool{
	{"passes", "printer"}:        true, // stage dumps print the program
	{"runtime", "tensor"}:        true, // runs fill host tensors
	{"pld", "pl"}:                true, // pld extends pl's builder
	{"interp", "interp/symbols"}: true, // the session loads the cell symbols
	{"bench", "testprogs"}:       true, // the benchmarks time the corpus's allreduce
	{"cmd/ptorepl", "kernel"}:    true, // `ptorepl kernel` serves the Jupyter kernel
}

// pkgInfo is the part of `go list -json` the check reads.
type pkgInfo struct {
	ImportPath string
	Imports    []string
}

// checkLayers returns one message per package missing from the table and
// per edge that does not run downward; graph maps module-relative paths to
// their module-relative imports.
func checkLayers(graph map[string][]string) []string {
	var errs []string
	pkgs := make([]string, 0, len(graph))
	for p := range graph {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, from := range pkgs {
		lf, ok := layerOf[from]
		if !ok {
			errs = append(errs, fmt.Sprintf("package %s has no layer: add it to layerOf and docs/architecture.md", from))
			continue
		}
		if strings.HasPrefix(from, "internal/") && lf >= layerOf["pl"] {
			errs = append(errs, fmt.Sprintf("package %s is under internal/ but in layer %q: internal/ holds only what sits below pl", from, layerNames[lf]))
		}
		for _, to := range graph[from] {
			lt, ok := layerOf[to]
			if !ok {
				continue // reported once as its own package
			}
			if lt < lf || (lt == lf && sameLayer[[2]string{from, to}]) {
				continue
			}
			errs = append(errs, fmt.Sprintf("%s (layer %q) imports %s (layer %q): imports must point to a lower layer", from, layerNames[lf], to, layerNames[lt]))
		}
	}
	return errs
}

// moduleGraph lists the module's packages and their imports within it.
func moduleGraph(t *testing.T) map[string][]string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatalf("the go command is needed to list packages: %v", err)
	}
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports", module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	graph := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkgInfo
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("decoding go list output: %v", err)
		}
		from := strings.TrimPrefix(p.ImportPath, module+"/")
		graph[from] = nil
		for _, imp := range p.Imports {
			if rel, ok := strings.CutPrefix(imp, module+"/"); ok {
				graph[from] = append(graph[from], rel)
			}
		}
	}
	return graph
}

func TestModuleLayers(t *testing.T) {
	graph := moduleGraph(t)
	// Guard against a listing that silently came back short.
	for _, p := range []string{"ir", "passes", "pl", "testprogs", "cmd/ptorepl"} {
		if _, ok := graph[p]; !ok {
			t.Fatalf("go list did not report package %s; got %d packages", p, len(graph))
		}
	}
	for _, e := range checkLayers(graph) {
		t.Error(e)
	}
}

// TestCheckLayersRejects shows the check can fail: each fixture adds one
// wrong edge or package to a small graph that passes on its own.
func TestCheckLayersRejects(t *testing.T) {
	good := map[string][]string{
		"ir":        nil,
		"printer":   {"ir"},
		"passes":    {"ir", "printer"},
		"runtime":   {"ir", "tensor"},
		"tensor":    {"ir"},
		"pl":        {"ir", "passes", "runtime"},
		"pld":       {"ir", "pl"},
		"testprogs": {"ir", "pl", "pld"},
	}
	if errs := checkLayers(good); len(errs) != 0 {
		t.Fatalf("the base graph should pass, got %q", errs)
	}
	tests := []struct {
		name, from, to string
		want           string
	}{
		{"ir imports a core package", "ir", "printer", "ir (layer \"ir\") imports printer"},
		{"core imports the DSL", "runtime", "pl", "runtime (layer \"core\") imports pl"},
		{"unlisted same-layer edge", "printer", "passes", "printer (layer \"core\") imports passes"},
		{"pl imports test programs", "pl", "testprogs", "pl (layer \"dsl\") imports testprogs"},
		{"pl imports pld back", "pl", "pld", "pl (layer \"dsl\") imports pld"},
		{"unplaced package", "newpkg", "ir", "package newpkg has no layer"},
		{"internal package above pl", "internal/testprogs", "pl", "is under internal/"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := map[string][]string{}
			for k, v := range good {
				g[k] = append([]string(nil), v...)
			}
			g[tc.from] = append(g[tc.from], tc.to)
			if tc.from == "internal/testprogs" {
				layerOf[tc.from] = layerOf["testprogs"]
				defer delete(layerOf, tc.from)
			}
			errs := checkLayers(g)
			found := false
			for _, e := range errs {
				if strings.Contains(e, tc.want) {
					found = true
				}
			}
			if !found {
				t.Fatalf("want an error containing %q, got %q", tc.want, errs)
			}
		})
	}
}
