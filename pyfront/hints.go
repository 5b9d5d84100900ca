package pyfront

import (
	"regexp"
	"strconv"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/printer"
)

var suffixRE = regexp.MustCompile(`^(.+)_([0-9]+)$`)

// restoreHints undoes the printer's clash renaming where it can: a printed
// x_1 beside an x is a rebinding of x, and passes (ConvertToSSA) follow
// rebindings by name. The hints are restored only when renaming them again
// reproduces exactly the names read, so the text still prints back
// byte for byte.
func restoreHints(fn *ir.Function, free map[string]*ir.Var) {
	order, bound := renameOrder(fn, free)
	names := map[string]bool{}
	for _, v := range order {
		names[v.Name] = true
	}
	proposed := map[*ir.Var]string{}
	for _, v := range order {
		if m := suffixRE.FindStringSubmatch(v.Name); m != nil && bound[v] && names[m[1]] {
			proposed[v] = m[1]
		}
	}
	if len(proposed) == 0 {
		return
	}
	hint := func(v *ir.Var) string {
		if h, ok := proposed[v]; ok {
			return h
		}
		return v.Name
	}
	count := map[string]int{}
	for _, v := range order {
		count[hint(v)]++
	}
	used := map[string]bool{}
	next := map[string]int{}
	for _, v := range order {
		if count[hint(v)] == 1 {
			used[hint(v)] = true
		}
	}
	for _, v := range order {
		h := hint(v)
		got := h
		if count[h] > 1 {
			for i := next[h]; ; i++ {
				cand := h
				if i > 0 {
					cand = h + "_" + strconv.Itoa(i)
				}
				if !used[cand] {
					used[cand] = true
					got = cand
					next[h] = i + 1
					break
				}
			}
		}
		if got != v.Name {
			return // renaming would not give back the names read
		}
	}
	for v, h := range proposed {
		v.Name = h
	}
}

// renameOrder lists variables as the printer's renaming visits them:
// parameters, body definitions, then uses of bound or free variables.
func renameOrder(fn *ir.Function, free map[string]*ir.Var) ([]*ir.Var, map[*ir.Var]bool) {
	freeSet := map[*ir.Var]bool{}
	for _, v := range free {
		freeSet[v] = true
	}
	return printer.RenameOrder(fn, func(v *ir.Var, bound map[*ir.Var]bool) bool { return bound[v] || freeSet[v] })
}
