//go:build cgo

package pyfront

import (
	"fmt"
	"strconv"
	"strings"
)

// F-strings. Upstream's tests name parametrize cases with them
// (ids=[f"{m}x{k}x{n}" for m, k, n in _MKN]) and test cases their
// programs, so the reader evaluates one like Python: the text between the
// braces as an expression in scope, shown with str() or, after !r, repr(),
// through a format spec of the common kinds (width, fill, sign, precision,
// d, f, e, g, x, o, b, %).

// hasInterpolation reports whether the string literal n is an f-string
// with at least one {expression}.
func hasInterpolation(n *node) bool {
	for i := uint(0); i < n.ChildCount(); i++ {
		if n.Child(i).Kind() == "interpolation" {
			return true
		}
	}
	return false
}

// fstring evaluates the f-string literal n.
func (r *reader) fstring(n *node, e *env, fc *fnCtx) string {
	raw := false
	var b strings.Builder
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		switch c.Kind() {
		case "string_start":
			raw = strings.ContainsAny(r.text(c), "rR")
		case "string_content":
			t := strings.NewReplacer("{{", "{", "}}", "}").Replace(r.text(c))
			if !raw {
				t = unescapePython(t)
			}
			b.WriteString(t)
		case "interpolation":
			b.WriteString(r.interpolate(c, e, fc))
		}
	}
	return b.String()
}

// interpolate is one {expression!conversion:spec} of an f-string.
func (r *reader) interpolate(n *node, e *env, fc *fnCtx) string {
	var expr, spec *node
	conv := ""
	for _, c := range r.kids(n) {
		switch c.Kind() {
		case "type_conversion":
			conv = strings.TrimPrefix(r.text(c), "!")
		case "format_specifier":
			spec = c
		default:
			if expr == nil {
				expr = c
			}
		}
	}
	if expr == nil {
		r.fail(n, "an f-string's {} holds no expression")
	}
	v := r.evalIn(expr, e, fc)
	if conv == "r" {
		s, ok := pyRepr(v)
		if !ok {
			r.fail(expr, "an f-string cannot show %s", describe(v))
		}
		v = s
	}
	if spec == nil {
		s, ok := pyStr(v)
		if !ok {
			r.fail(expr, "an f-string cannot show %s: ptorepl formats strings, numbers, bools, None, enum members and lists or tuples of them", describe(v))
		}
		return s
	}
	text := strings.TrimPrefix(r.text(spec), ":")
	s, err := pyFormat(v, text)
	if err != nil {
		r.fail(spec, "f-string format spec %q: %v", text, err)
	}
	return s
}

// pyStr is Python's str(v) for the values the reader evaluates; ok is
// false for a value it cannot show (an IR expression, a program).
func pyStr(v value) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case pyList, pyTuple:
		return pyRepr(v)
	case nil, bool, int64, float64:
		return paramID(v, "", 0), true
	case enumMember:
		// str() of a plain Enum member is Class.NAME; of a str or int
		// enum its value, as pytest's id.
		return paramID(x, "", 0), true
	}
	return "", false
}

// pyRepr is Python's repr(v): strings quoted, sequences bracketed.
func pyRepr(v value) (string, bool) {
	switch x := v.(type) {
	case string:
		return "'" + strings.ReplaceAll(strings.ReplaceAll(x, `\`, `\\`), "'", `\'`) + "'", true
	case pyList, pyTuple:
		items := seqOf(v).([]value)
		parts := make([]string, len(items))
		for i, it := range items {
			s, ok := pyRepr(it)
			if !ok {
				return "", false
			}
			parts[i] = s
		}
		if _, tuple := v.(pyTuple); tuple {
			if len(parts) == 1 {
				return "(" + parts[0] + ",)", true
			}
			return "(" + strings.Join(parts, ", ") + ")", true
		}
		return "[" + strings.Join(parts, ", ") + "]", true
	}
	return pyStr(v)
}

// pyFormat is format(v, spec) for Python's format mini-language, as far
// as numbers and strings use it: [[fill]align][sign][0][width][,][.prec][type].
func pyFormat(v value, spec string) (string, error) {
	fill, align := " ", byte(0)
	if len(spec) >= 2 && strings.IndexByte("<>^=", spec[1]) >= 0 {
		fill, align, spec = spec[:1], spec[1], spec[2:]
	} else if len(spec) >= 1 && strings.IndexByte("<>^=", spec[0]) >= 0 {
		align, spec = spec[0], spec[1:]
	}
	sign := byte('-')
	if len(spec) > 0 && strings.IndexByte("+- ", spec[0]) >= 0 {
		sign, spec = spec[0], spec[1:]
	}
	if len(spec) > 0 && spec[0] == '0' {
		if align == 0 {
			fill, align = "0", '='
		}
		spec = spec[1:]
	}
	i := 0
	for i < len(spec) && spec[i] >= '0' && spec[i] <= '9' {
		i++
	}
	width, _ := strconv.Atoi(spec[:i])
	spec = spec[i:]
	comma := strings.HasPrefix(spec, ",")
	spec = strings.TrimPrefix(spec, ",")
	prec := -1
	if strings.HasPrefix(spec, ".") {
		j := 1
		for j < len(spec) && spec[j] >= '0' && spec[j] <= '9' {
			j++
		}
		if j == 1 {
			return "", fmt.Errorf("a precision needs digits")
		}
		prec, _ = strconv.Atoi(spec[1:j])
		spec = spec[j:]
	}
	if len(spec) > 1 {
		return "", fmt.Errorf("ptorepl does not read %q", spec)
	}
	kind := byte(0)
	if spec != "" {
		kind = spec[0]
	}
	var body string
	neg := false
	switch x := v.(type) {
	case string:
		if kind != 0 && kind != 's' {
			return "", fmt.Errorf("type %q is not for a str", kind)
		}
		body = x
		if prec >= 0 && prec < len(body) {
			body = body[:prec]
		}
		if align == 0 {
			align = '<'
		}
		return pad(body, fill, align, width), nil
	case bool:
		if kind == 0 {
			body, _ = pyStr(x)
			return pad(body, fill, orDefault(align, '<'), width), nil
		}
		n := int64(0)
		if x {
			n = 1
		}
		return pyFormat(n, rebuild(fill, align, sign, width, comma, prec, kind))
	case int64:
		neg = x < 0
		u := x
		if neg {
			u = -x
		}
		switch kind {
		case 0, 'd':
			body = strconv.FormatInt(u, 10)
		case 'x', 'X', 'o', 'b':
			base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'b': 2}[kind]
			body = strconv.FormatInt(u, base)
			if kind == 'X' {
				body = strings.ToUpper(body)
			}
		case 'f', 'F', 'e', 'E', 'g', 'G', '%':
			return pyFormat(float64(x), rebuild(fill, align, sign, width, comma, prec, kind))
		default:
			return "", fmt.Errorf("type %q is not for an int", kind)
		}
		if comma {
			body = groupThousands(body)
		}
	case float64:
		neg = x < 0 || (x == 0 && 1/x < 0)
		a := x
		if neg {
			a = -x
		}
		switch kind {
		case 0:
			if prec < 0 {
				body = pyFloat(a)
			} else {
				body = strconv.FormatFloat(a, 'g', max(prec, 1), 64)
			}
		case 'f', 'F', 'e', 'E', '%':
			if prec < 0 {
				prec = 6
			}
			if kind == '%' {
				body = strconv.FormatFloat(a*100, 'f', prec, 64) + "%"
			} else {
				body = strconv.FormatFloat(a, kind|0x20, prec, 64)
				if kind == 'E' {
					body = strings.ToUpper(body)
				}
			}
		case 'g', 'G':
			if prec < 0 {
				prec = 6
			}
			body = strconv.FormatFloat(a, 'g', max(prec, 1), 64)
		default:
			return "", fmt.Errorf("type %q is not for a float", kind)
		}
		if comma {
			whole, frac, _ := strings.Cut(body, ".")
			body = groupThousands(whole)
			if frac != "" {
				body += "." + frac
			}
		}
	default:
		s, ok := pyStr(v)
		if !ok || kind != 0 {
			return "", fmt.Errorf("ptorepl formats strings and numbers with a spec, given %s", describe(v))
		}
		return pad(s, fill, orDefault(align, '<'), width), nil
	}
	prefix := ""
	switch {
	case neg:
		prefix = "-"
	case sign == '+':
		prefix = "+"
	case sign == ' ':
		prefix = " "
	}
	align = orDefault(align, '>')
	if align == '=' {
		return prefix + pad(body, fill, '>', width-len(prefix)), nil
	}
	return pad(prefix+body, fill, align, width), nil
}

func orDefault(a, d byte) byte {
	if a == 0 {
		return d
	}
	return a
}

// rebuild writes a parsed spec back, for a value formatted as another type.
func rebuild(fill string, align, sign byte, width int, comma bool, prec int, kind byte) string {
	var b strings.Builder
	if align != 0 {
		b.WriteString(fill)
		b.WriteByte(align)
	}
	b.WriteByte(sign)
	if width > 0 {
		b.WriteString(strconv.Itoa(width))
	}
	if comma {
		b.WriteByte(',')
	}
	if prec >= 0 {
		b.WriteString("." + strconv.Itoa(prec))
	}
	b.WriteByte(kind)
	return b.String()
}

func pad(s, fill string, align byte, width int) string {
	n := width - len([]rune(s))
	if n <= 0 {
		return s
	}
	switch align {
	case '<':
		return s + strings.Repeat(fill, n)
	case '^':
		return strings.Repeat(fill, n/2) + s + strings.Repeat(fill, n-n/2)
	}
	return strings.Repeat(fill, n) + s
}

func groupThousands(digits string) string {
	var b strings.Builder
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// unescapePython reads the backslash escapes of a Python string's text.
func unescapePython(t string) string {
	if !strings.Contains(t, `\`) {
		return t
	}
	q := strings.NewReplacer(`\'`, `'`, `\"`, `"`).Replace(t)
	if s, err := strconv.Unquote(`"` + strings.ReplaceAll(q, `"`, `\"`) + `"`); err == nil {
		return s
	}
	return t
}
