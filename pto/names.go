package pto

import (
	"sort"
	"strconv"
	"strings"
)

func itoa(i int) string { return strconv.Itoa(i) }

// namer hands out SSA names, unique within one function.
type namer struct {
	used map[string]bool
	next int
}

func newNamer() *namer { return &namer{used: map[string]bool{}} }

// temp is the next numeric temporary: %0, %1, ...
func (n *namer) temp() string {
	for {
		s := "%" + itoa(n.next)
		n.next++
		if !n.used[s] {
			n.used[s] = true
			return s
		}
	}
}

// named is %<hint> when that name is free, else a numeric temporary.
func (n *namer) named(hint string) string {
	h := sanitize(hint)
	if h == "" {
		return n.temp()
	}
	s := "%" + h
	if n.used[s] {
		return n.temp()
	}
	n.used[s] = true
	return s
}

// reserve marks a name as taken.
func (n *namer) reserve(s string) { n.used[s] = true }

// sanitize keeps an MLIR suffix-id: letters, digits and $._- , not starting
// with a digit (a numeric name would collide with the temporaries).
func sanitize(hint string) string {
	var b strings.Builder
	for _, r := range hint {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '$', r == '.', r == '-':
			b.WriteRune(r)
		default:
			b.WriteRune('_')
		}
	}
	s := b.String()
	if s != "" && s[0] >= '0' && s[0] <= '9' {
		s = "v" + s
	}
	return s
}

// constKey identifies a hoisted constant.
type constKey struct {
	typ     string
	i       int64
	f       float64
	isFloat bool
}

// consts are a function's hoisted, deduplicated constants.
type consts struct {
	n       *namer
	vals    map[constKey]value
	typeOrd []string // types in order of first use
	byType  map[string][]constKey
}

func newConsts(n *namer) *consts {
	return &consts{n: n, vals: map[constKey]value{}, byType: map[string][]constKey{}}
}

// constName is %c<v>_<type>; a negative value is written n<abs> (%cn1_i32).
func constName(k constKey) string {
	var v string
	if k.isFloat {
		v = strings.NewReplacer("-", "n", "+", "", ".", "p").Replace(strconv.FormatFloat(k.f, 'g', -1, 64))
	} else if k.i < 0 {
		v = "n" + strconv.FormatUint(uint64(-k.i), 10)
	} else {
		v = strconv.FormatInt(k.i, 10)
	}
	return "c" + v + "_" + k.typ
}

func (c *consts) get(k constKey) value {
	if v, ok := c.vals[k]; ok {
		return v
	}
	v := value{ssa: c.n.named(constName(k)), typ: k.typ}
	c.vals[k] = v
	if _, seen := c.byType[k.typ]; !seen {
		c.typeOrd = append(c.typeOrd, k.typ)
	}
	c.byType[k.typ] = append(c.byType[k.typ], k)
	return v
}

// int is the integer constant v of MLIR type typ (i1 prints true/false).
func (c *consts) int(v int64, typ string) value { return c.get(constKey{typ: typ, i: v}) }

// float is the floating-point constant v of MLIR type typ.
func (c *consts) float(v float64, typ string) value {
	return c.get(constKey{typ: typ, f: v, isFloat: true})
}

// ops lists the constants' definitions: grouped by type in order of first
// use, ascending within a type.
func (c *consts) ops() []*operation {
	var out []*operation
	for _, t := range c.typeOrd {
		ks := c.byType[t]
		sort.Slice(ks, func(i, j int) bool {
			if ks[i].isFloat != ks[j].isFloat {
				return !ks[i].isFloat
			}
			if ks[i].isFloat {
				return ks[i].f < ks[j].f
			}
			return ks[i].i < ks[j].i
		})
		for _, k := range ks {
			out = append(out, constOp(c.vals[k], k))
		}
	}
	return out
}

// constOp is `%c = arith.constant V : T`.
func constOp(res value, k constKey) *operation {
	lit := strconv.FormatInt(k.i, 10)
	switch {
	case k.isFloat:
		lit = formatFloat(k.f)
	case k.typ == "i1":
		lit = "false"
		if k.i != 0 {
			lit = "true"
		}
	}
	typed := lit + " : " + k.typ
	if k.typ == "i1" {
		typed = lit
	}
	return &operation{name: "arith.constant", res: []value{res},
		attrs:  []attr{{"value", typed}},
		custom: "arith.constant " + typed}
}
