package interp

import (
	"context"
	"fmt"
	"reflect"

	"github.com/ptorepl/ptorepl/internal/dsl"
	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/printer"
)

func setEvalContext(ctx context.Context) func() { return dsl.SetContext(ctx) }

// FormatText is the text/plain display of a value: IR in PyPTO's printed
// syntax, tensors like torch, anything else as Go prints it.
func FormatText(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case *ir.Program:
		return printer.Program(x)
	case *ir.Function:
		return printer.Function(x)
	case ir.Type:
		return ir.DefaultFormat.Type(x)
	case ir.Expr:
		return ir.DefaultFormat.Expr(x) + ": " + ir.DefaultFormat.Type(x.Type())
	case error:
		return x.Error()
	case fmt.Stringer:
		return x.String()
	case string:
		return fmt.Sprintf("%q", x)
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Func {
		return rv.Type().String()
	}
	return fmt.Sprintf("%v", v)
}
