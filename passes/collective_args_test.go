package passes

import (
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/stretchr/testify/require"
)

// collectiveArgs finds each argument by the registry's name, whatever its
// position, and says which op and argument are missing.
func TestCollectiveArgs(t *testing.T) {
	v := func(name string) ir.Expr { return ir.NewVar(name, ir.PtrT, ir.Span{}) }
	in, tgt, sig := v("in"), v("tgt"), v("sig")
	call := func(op string, args ...ir.Expr) *ir.Call {
		d, ok := ir.LookupOp(op)
		require.True(t, ok, op)
		return &ir.Call{Op: d, Args: args}
	}
	cases := []struct {
		name                  string
		call                  *ir.Call
		input, target, signal ir.Expr
		wantErr               string
	}{
		{"gather", call("pld.tensor.allgather", in, tgt, sig), in, tgt, sig, ""},
		{"reduce", call("pld.tensor.allreduce", tgt, sig), nil, tgt, sig, ""},
		{"barrier", call("pld.tensor.barrier", sig), nil, nil, sig, ""},
		{"signal-less allreduce", call("pld.tensor.allreduce", tgt), nil, nil, nil,
			`pld.tensor.allreduce: argument "signal" (position 1) not given: 1 argument(s)`},
		{"not a collective", call("tile.load", tgt, ir.Dims(0), ir.Dims(8)), nil, nil, nil,
			"tile.load: not a collective with a signal argument"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			input, target, signal, err := collectiveArgs(c.call)
			if c.wantErr != "" {
				require.EqualError(t, err, c.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, c.input, input)
			require.Equal(t, c.target, target)
			require.Equal(t, c.signal, signal)
		})
	}
}
