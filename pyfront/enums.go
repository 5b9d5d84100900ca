//go:build cgo

package pyfront

import "strings"

// Plain Python enums, as upstream's test harness writes its DataType: a
// class deriving from Enum whose body assigns the members, with @property
// methods that map a member to something else (DataType.FP32.torch_dtype
// is torch.float32). Tests size their programs with them (a packed row
// vector holds 32 // self.dtype.torch_dtype.itemsize lanes), so the reader
// keeps a member as a value of its own: it equals only itself, keys
// dicts, reads .name and .value, and runs its properties in the file that
// defines the enum. A torch dtype, an opaque symbol otherwise, reads
// .itemsize.

// enumMember is one member of an enum class of file home.
type enumMember struct {
	home          *reader
	class, member string
}

// String is Python's str() of a plain Enum member, which is also the id
// pytest gives it as a parameter.
func (m enumMember) String() string { return m.class + "." + m.member }

// enumBases are the bases that make a class an enum.
var enumBases = map[string]bool{"Enum": true, "IntEnum": true, "StrEnum": true, "Flag": true, "IntFlag": true}

// isEnumBase reports whether a superclass expression names an enum base
// (Enum, enum.Enum, ...).
func isEnumBase(text string) bool {
	if i := strings.LastIndexByte(text, '.'); i >= 0 {
		text = text[i+1:]
	}
	return enumBases[text]
}

// idByValueBase reports whether a base makes pytest name a member by its
// value: a str member is a string to it, and an IntEnum's str() is its
// number (Python 3.11).
func idByValueBase(text string) bool {
	switch text {
	case "str", "StrEnum", "enum.StrEnum", "IntEnum", "enum.IntEnum", "IntFlag", "enum.IntFlag":
		return true
	}
	return false
}

// value is m's value, evaluated in its home file.
func (m enumMember) value() value {
	home := m.home
	return home.evalIn(home.cases[m.class].members[m.member].ChildByFieldId(fldRight), home.globalEnv(), nil)
}

// enumMembers records the members of enum class c: the class-level
// assignments to a plain name (_ignore_ and the like excepted).
func (r *reader) enumMembers(c *caseClass) {
	c.members = map[string]*node{}
	for _, a := range c.attrs {
		if l := a.ChildByFieldId(fldLeft); l.Kind() == "identifier" && !strings.HasPrefix(r.text(l), "_") {
			c.members[r.text(l)] = a
		}
	}
}

// enumClass is the enum class a name refers to here: one of this file's,
// or one imported from a file ptorepl read; ok is false otherwise.
func (r *reader) enumClass(name string, e *env) (home *reader, c *caseClass, ok bool) {
	if e != nil {
		if _, bound := e.lookup(name); bound {
			return nil, nil, false
		}
	}
	if c := r.cases[name]; c != nil && c.members != nil {
		return r, c, true
	}
	if ref, found := r.enumImports[name]; found {
		return ref.home, ref.home.cases[ref.class], true
	}
	return nil, nil, false
}

// enumRef is an enum class imported from another file.
type enumRef struct {
	home  *reader
	class string
}

// valueAttr reads an attribute of a value the reader knows: an enum's
// member (DataType.FP32), a member's .name, .value or property
// (self.dtype.torch_dtype), a torch dtype's .itemsize. Only chains of
// names are evaluated, which have no effect on the program being built;
// ok is false for anything else.
func (r *reader) valueAttr(n *node, e *env, fc *fnCtx) (value, bool) {
	obj := n.ChildByFieldId(fldObject)
	attr := r.text(n.ChildByFieldId(fldAttribute))
	if obj.Kind() == "identifier" {
		if home, c, ok := r.enumClass(r.text(obj), e); ok {
			if _, member := c.members[attr]; member {
				return enumMember{home: home, class: c.name, member: attr}, true
			}
			return nil, false
		}
	}
	root := obj
	for root.Kind() == "attribute" {
		root = root.ChildByFieldId(fldObject)
	}
	if root.Kind() != "identifier" {
		return nil, false
	}
	name := r.text(root)
	var v value
	_, bound := e.lookup(name)
	if _, _, isEnum := r.enumClass(name, e); bound || isEnum {
		v = r.evalIn(obj, e, fc)
	} else if from, foreign := r.foreign[name]; foreign {
		v = foreignSymbol{name: r.text(obj), from: from} // torch.float16
	}
	if hv, ok := r.hookAttr(n, v, attr); ok {
		return hv, true
	}
	switch v := v.(type) {
	case enumMember:
		return r.memberAttr(n, v, attr), true
	case funcRef:
		// A test-case class's class attribute (op_cls.op_name): its last
		// assignment in the class or, failing that, in a base.
		for _, k := range v.f.cls.mro {
			for i := len(k.attrs) - 1; i >= 0; i-- {
				a := k.attrs[i]
				if left := a.ChildByFieldId(fldLeft); left.Kind() == "identifier" && r.text(left) == attr {
					return r.eval(a.ChildByFieldId(fldRight), r.globalEnv()), true
				}
			}
		}
	case foreignSymbol:
		if d, ok := torchDTypes[v.dtypeName()]; ok && attr == "itemsize" {
			return int64(max(d.Bits()/8, 1)), true // torch.bool takes a byte
		}
	}
	return nil, false
}

// memberAttr is m.attr: its name, its value, or a @property of its class
// computed in the enum's own file with self bound to m.
func (r *reader) memberAttr(at *node, m enumMember, attr string) value {
	home, c := m.home, m.home.cases[m.class]
	switch attr {
	case "name":
		return m.member
	case "value":
		return m.value()
	}
	if !c.isProperty(attr) {
		r.fail(at, "%s has no attribute %s that ptorepl reads (an enum member's .name, .value and @property methods)", m, attr)
	}
	def, _ := c.method(attr)
	v, _ := home.runMethod(def, c, m, attr, nil, nil) // errors in the enum's file
	return v
}

// dtypeName is the module-qualified name of a foreign symbol (the alias
// of `import torch as t` replaced by torch), which names a torch dtype
// when it is one.
func (s foreignSymbol) dtypeName() string {
	if _, rest, dotted := strings.Cut(s.name, "."); dotted {
		return s.from + "." + rest
	}
	return s.from + "." + s.name // from torch import float16
}
