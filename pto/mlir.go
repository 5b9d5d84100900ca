package pto

import "strings"

// The emitted operations. An emitter builds an operation once, with both
// spellings: its custom assembly (what PyPTO prints) and the parts MLIR's
// generic form needs (operands and their types, attributes, result types).

// value is an SSA value: its name ("%x", "%r#1") and MLIR type.
type value struct {
	ssa string
	typ string
}

// attr is one generic-form attribute: name = text.
type attr struct {
	name, val string
}

// region is one region of an operation: a single block with arguments.
type region struct {
	args []value
	ops  []*operation
	// elide leaves the region out of the custom form (an absent else).
	elide bool
	// label prints the region's arguments as a block label in the custom
	// form too (scf.while's after region: `^bb0(%x: i32):`).
	label bool
}

// operation is one MLIR operation.
type operation struct {
	name string // "pto.tload", "arith.addi"
	// res are the results. Several results share one name: "%r:2" defines
	// "%r#0" and "%r#1".
	res      []value
	operands []value
	attrs    []attr
	// custom is the custom assembly after "%r = " (or the whole line).
	custom string
	// Region ops (scf.for, scf.if, func.func, builtin.module): custom is the
	// head line, which ends in "{"; regions follow, separated by "} else {"
	// (sep) and closed by "}" plus tail.
	regions []*region
	sep     string
	tail    string
	// implicit marks a terminator the custom form leaves out (an empty scf.yield).
	implicit bool
	// blank prints an empty line before the op (between functions).
	blank bool
	// declaration is a func.func without a body: the custom form is its
	// head line alone, the generic form keeps its one empty region.
	declaration bool
}

// resultNames is the "%r" / "%r:2" defining text, or "".
func (o *operation) resultNames() string {
	switch len(o.res) {
	case 0:
		return ""
	case 1:
		return o.res[0].ssa
	}
	base, _, _ := strings.Cut(o.res[0].ssa, "#")
	return base + ":" + itoa(len(o.res))
}

// mlirPrinter writes operations in custom or generic form.
type mlirPrinter struct {
	generic bool
	b       strings.Builder
}

func (p *mlirPrinter) ops(ops []*operation, depth int) {
	for _, o := range ops {
		p.op(o, depth)
	}
}

func (p *mlirPrinter) op(o *operation, depth int) {
	if o.implicit && !p.generic {
		return
	}
	if o.blank {
		p.b.WriteString("\n")
	}
	ind := strings.Repeat("  ", depth)
	p.b.WriteString(ind)
	if r := o.resultNames(); r != "" {
		p.b.WriteString(r + " = ")
	}
	if p.generic {
		p.genericOp(o, depth)
		return
	}
	p.b.WriteString(o.custom + "\n")
	if len(o.regions) == 0 || o.declaration {
		return
	}
	for i, r := range o.regions {
		if i > 0 && r.elide {
			continue
		}
		if i > 0 {
			p.b.WriteString(ind + "} " + o.sep + " {\n")
		}
		if r.label && len(r.args) > 0 {
			p.b.WriteString(ind + "^bb0(" + argList(r.args) + "):\n")
		}
		p.ops(r.ops, depth+1)
	}
	p.b.WriteString(ind + "}" + o.tail + "\n")
}

func (p *mlirPrinter) genericOp(o *operation, depth int) {
	ind := strings.Repeat("  ", depth)
	p.b.WriteString(`"` + o.name + `"(`)
	for i, v := range o.operands {
		if i > 0 {
			p.b.WriteString(", ")
		}
		p.b.WriteString(v.ssa)
	}
	p.b.WriteString(")")
	if len(o.regions) > 0 {
		p.b.WriteString(" (")
		for i, r := range o.regions {
			if i > 0 {
				p.b.WriteString(", ")
			}
			p.b.WriteString("{\n")
			if len(r.args) > 0 {
				p.b.WriteString(ind + "^bb0(" + argList(r.args) + "):\n")
			}
			p.ops(r.ops, depth+1)
			p.b.WriteString(ind + "}")
		}
		p.b.WriteString(")")
	}
	if len(o.attrs) > 0 {
		p.b.WriteString(" {")
		for i, a := range o.attrs {
			if i > 0 {
				p.b.WriteString(", ")
			}
			p.b.WriteString(a.name)
			if a.val != "" {
				p.b.WriteString(" = " + a.val)
			}
		}
		p.b.WriteString("}")
	}
	p.b.WriteString(" : " + functionType(o.operands, o.res) + "\n")
}

// argList is a block label's "%a: T, %b: U".
func argList(args []value) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.ssa + ": " + a.typ
	}
	return strings.Join(parts, ", ")
}

// functionType is "(T1, T2) -> R" for operand and result values.
func functionType(ins, outs []value) string {
	in := make([]string, len(ins))
	for i, v := range ins {
		in[i] = v.typ
	}
	out := make([]string, len(outs))
	for i, v := range outs {
		out[i] = v.typ
	}
	return signature(in, out)
}

// signature is "(T1, T2) -> R", with R parenthesised unless it is one type.
func signature(in, out []string) string {
	s := "(" + strings.Join(in, ", ") + ") -> "
	if len(out) == 1 {
		return s + out[0]
	}
	return s + "(" + strings.Join(out, ", ") + ")"
}

// typeList joins the types of values.
func typeList(vs []value) string {
	ts := make([]string, len(vs))
	for i, v := range vs {
		ts[i] = v.typ
	}
	return strings.Join(ts, ", ")
}

// ssaList joins the names of values.
func ssaList(vs []value) string {
	ss := make([]string, len(vs))
	for i, v := range vs {
		ss[i] = v.ssa
	}
	return strings.Join(ss, ", ")
}
