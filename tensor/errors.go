package tensor

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
)

// Error is the value every function of this package panics with on bad input. Its message
// names the function, what it expected and what it was given, for example
//
//	tensor.FromFloat32: expected 6 values for shape [2, 3], given 5
type Error struct {
	Func     string // "tensor.FromFloat32", "Tensor.Reshape", ...
	Expected string
	Given    string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: expected %s, given %s", e.Func, e.Expected, e.Given)
}

func fail(fn, expected, given string) {
	panic(&Error{Func: fn, Expected: expected, Given: given})
}

func failf(fn, expected string, format string, args ...any) {
	fail(fn, expected, fmt.Sprintf(format, args...))
}

// dimsString prints dims like a Python list: [2, 3].
func dimsString(dims []int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, d := range dims {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(d))
	}
	b.WriteByte(']')
	return b.String()
}

// dtypeList is the "one of ..." text for unsupported-dtype errors.
func dtypeList() string {
	names := make([]string, len(supportedDTypes))
	for i, d := range supportedDTypes {
		names[i] = d.String()
	}
	return "a dtype among " + strings.Join(names, ", ")
}

func checkDType(fn string, dt ir.DataType) {
	if !Supported(dt) {
		fail(fn, dtypeList(), dt.String())
	}
}
