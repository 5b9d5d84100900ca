package tensor

import (
	"math"
	"strconv"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// torch's default print options.
const (
	printPrecision = 4
	printThreshold = 1000
	printEdgeItems = 3
	printLineWidth = 80
)

// TorchDType returns torch's name for dt: "torch.float32", "torch.int64" (INT64 and INDEX),
// "torch.bool", ...; "" for a dtype torch has no name for here.
func TorchDType(dt ir.DataType) string {
	switch dt {
	case ir.FP32:
		return "torch.float32"
	case ir.FP16:
		return "torch.float16"
	case ir.BF16:
		return "torch.bfloat16"
	case ir.INT8:
		return "torch.int8"
	case ir.INT16:
		return "torch.int16"
	case ir.INT32:
		return "torch.int32"
	case ir.INT64, ir.INDEX:
		return "torch.int64"
	case ir.UINT8:
		return "torch.uint8"
	case ir.UINT16:
		return "torch.uint16"
	case ir.UINT32:
		return "torch.uint32"
	case ir.UINT64:
		return "torch.uint64"
	case ir.BOOL:
		return "torch.bool"
	}
	return ""
}

// defaultDType reports the dtypes torch prints without a dtype= suffix.
func defaultDType(dt ir.DataType) bool {
	return dt == ir.FP32 || dt == ir.INT64 || dt == ir.INDEX || dt == ir.BOOL
}

// pyFloat formats like Python's format(x, ".{prec}{verb}") for finite and non-finite x.
func pyFloat(x float64, verb byte, prec int) string {
	switch {
	case x != x:
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return strconv.FormatFloat(x, verb, prec, 64)
}

// formatter decides how every element of one tensor prints (torch's _Formatter).
type formatter struct {
	dtype    ir.DataType
	floating bool
	intMode  bool
	sciMode  bool
	maxWidth int
}

// newFormatter inspects the elements that will be printed (the summarized ones when
// summarize is set), as torch's _Formatter does.
func newFormatter(t *Tensor, summarize bool) *formatter {
	f := &formatter{dtype: t.dtype, floating: t.dtype.IsFloat(), intMode: true, maxWidth: 1}
	idx := printedIndices(t.shape, summarize)
	if !f.floating {
		for _, i := range idx {
			f.maxWidth = max(f.maxWidth, len(f.formatRaw(t, i)))
		}
		return f
	}
	var vals []float64
	for _, i := range idx {
		v := load(t.dtype, t.data, i)
		if v != 0 && !math.IsInf(v, 0) && v == v {
			vals = append(vals, v)
		}
	}
	if len(vals) == 0 {
		return f
	}
	lo, hi := math.Inf(1), 0.0
	for _, v := range vals {
		a := math.Abs(v)
		lo = min(lo, a)
		hi = max(hi, a)
		if v != math.Ceil(v) {
			f.intMode = false
		}
	}
	if f.intMode {
		if hi/lo > 1000 || hi > 1e8 {
			f.sciMode = true
			for _, v := range vals {
				f.maxWidth = max(f.maxWidth, len(pyFloat(v, 'e', printPrecision)))
			}
		} else {
			for _, v := range vals {
				f.maxWidth = max(f.maxWidth, len(pyFloat(v, 'f', 0))+1)
			}
		}
		return f
	}
	if hi/lo > 1000 || hi > 1e8 || lo < 1e-4 {
		f.sciMode = true
		for _, v := range vals {
			f.maxWidth = max(f.maxWidth, len(pyFloat(v, 'e', printPrecision)))
		}
	} else {
		for _, v := range vals {
			f.maxWidth = max(f.maxWidth, len(pyFloat(v, 'f', printPrecision)))
		}
	}
	return f
}

// formatRaw formats element i of t without padding.
func (f *formatter) formatRaw(t *Tensor, i int) string {
	if f.floating {
		v := load(t.dtype, t.data, i)
		switch {
		case f.sciMode:
			return pyFloat(v, 'e', printPrecision)
		case f.intMode:
			s := pyFloat(v, 'f', 0)
			if !math.IsInf(v, 0) && v == v {
				s += "."
			}
			return s
		default:
			return pyFloat(v, 'f', printPrecision)
		}
	}
	if t.dtype == ir.BOOL {
		if t.data[i] != 0 {
			return "True"
		}
		return "False"
	}
	return strconv.FormatInt(loadInt(t.dtype, t.data, i), 10)
}

// format formats element i right-aligned to the common width.
func (f *formatter) format(t *Tensor, i int) string {
	s := f.formatRaw(t, i)
	if pad := f.maxWidth - len(s); pad > 0 {
		s = strings.Repeat(" ", pad) + s
	}
	return s
}

// edgeRange returns the indices printed along a dimension of size n.
func edgeRange(n int, summarize bool) []int {
	if summarize && n > 2*printEdgeItems {
		out := make([]int, 0, 2*printEdgeItems)
		for i := 0; i < printEdgeItems; i++ {
			out = append(out, i)
		}
		for i := n - printEdgeItems; i < n; i++ {
			out = append(out, i)
		}
		return out
	}
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// printedIndices returns the flat indices of the elements that print, in order (torch's
// get_summarized_data).
func printedIndices(shape []int, summarize bool) []int {
	var out []int
	var walk func(dim, base int)
	walk = func(dim, base int) {
		if dim == len(shape) {
			out = append(out, base)
			return
		}
		for _, i := range edgeRange(shape[dim], summarize) {
			walk(dim+1, base*shape[dim]+i)
		}
	}
	walk(0, 0)
	return out
}

// String prints t as torch's repr does with default print options; see the package
// documentation for the rules.
func (t *Tensor) String() string {
	if t == nil {
		return "<nil>"
	}
	const prefix = "tensor("
	indent := len(prefix)
	var suffixes []string
	var body string
	if t.Numel() == 0 {
		if len(t.shape) != 1 {
			suffixes = append(suffixes, "size="+pyTuple(t.shape))
		}
		if t.dtype != ir.FP32 {
			suffixes = append(suffixes, "dtype="+TorchDType(t.dtype))
		}
		body = "[]"
	} else {
		if !defaultDType(t.dtype) {
			suffixes = append(suffixes, "dtype="+TorchDType(t.dtype))
		}
		summarize := t.Numel() > printThreshold
		f := newFormatter(t, summarize)
		var b strings.Builder
		f.write(&b, t, t.shape, 0, indent, summarize)
		body = b.String()
	}
	return addSuffixes(prefix+body, suffixes, indent)
}

// pyTuple prints dims like a Python tuple: (2, 0), (3,), ().
func pyTuple(dims []int) string {
	if len(dims) == 1 {
		return "(" + strconv.Itoa(dims[0]) + ",)"
	}
	s := dimsString(dims)
	return "(" + s[1:len(s)-1] + ")"
}

// write prints the sub-tensor of the given shape starting at flat element base.
func (f *formatter) write(b *strings.Builder, t *Tensor, shape []int, base, indent int, summarize bool) {
	switch len(shape) {
	case 0:
		b.WriteString(f.format(t, base))
		return
	case 1:
		f.writeVector(b, t, shape[0], base, indent, summarize)
		return
	}
	n := shape[0]
	stride := 1
	for _, d := range shape[1:] {
		stride *= d
	}
	sep := "," + strings.Repeat("\n", len(shape)-1) + strings.Repeat(" ", indent+1)
	b.WriteByte('[')
	first := true
	item := func(i int) {
		if !first {
			b.WriteString(sep)
		}
		first = false
		f.write(b, t, shape[1:], base+i*stride, indent+1, summarize)
	}
	if summarize && n > 2*printEdgeItems {
		for i := 0; i < printEdgeItems; i++ {
			item(i)
		}
		b.WriteString(sep + "...")
		for i := n - printEdgeItems; i < n; i++ {
			item(i)
		}
	} else {
		for i := 0; i < n; i++ {
			item(i)
		}
	}
	b.WriteByte(']')
}

// writeVector prints a 1-D run of n elements, wrapping at the line width like torch's
// _vector_str.
func (f *formatter) writeVector(b *strings.Builder, t *Tensor, n, base, indent int, summarize bool) {
	elementLength := f.maxWidth + 2
	perLine := max(1, (printLineWidth-indent)/elementLength)
	var data []string
	if summarize && n > 2*printEdgeItems {
		for i := 0; i < printEdgeItems; i++ {
			data = append(data, f.format(t, base+i))
		}
		data = append(data, " ...")
		for i := n - printEdgeItems; i < n; i++ {
			data = append(data, f.format(t, base+i))
		}
	} else {
		for i := 0; i < n; i++ {
			data = append(data, f.format(t, base+i))
		}
	}
	b.WriteByte('[')
	for i, s := range data {
		if i > 0 {
			if i%perLine == 0 {
				b.WriteString(",\n")
				b.WriteString(strings.Repeat(" ", indent+1))
			} else {
				b.WriteString(", ")
			}
		}
		b.WriteString(s)
	}
	b.WriteByte(']')
}

// addSuffixes appends ", dtype=..." style suffixes, moving one to a new line when the last
// line would pass the line width (torch's _add_suffixes, with its length arithmetic).
func addSuffixes(s string, suffixes []string, indent int) string {
	var b strings.Builder
	b.WriteString(s)
	lastLineLen := len(s) - strings.LastIndexByte(s, '\n') + 1
	for _, suf := range suffixes {
		if lastLineLen+len(suf)+2 > printLineWidth {
			b.WriteString(",\n" + strings.Repeat(" ", indent) + suf)
			lastLineLen = indent + len(suf)
		} else {
			b.WriteString(", " + suf)
			lastLineLen += len(suf) + 2
		}
	}
	b.WriteByte(')')
	return b.String()
}
