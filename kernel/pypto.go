package kernel

import (
	"context"

	"github.com/ptorepl/ptorepl/interp"
)

// evalCell runs a cell: a "%%pypto NAME" cell reads its PyPTO Python body
// into a module bound to NAME; any other cell is Go.
func (k *Kernel) evalCell(ctx context.Context, code string) (*interp.Result, error) {
	goCode, isPypto, err := interp.PyptoCell(code)
	if !isPypto {
		return k.sess.Eval(ctx, code)
	}
	if err != nil {
		return nil, err
	}
	return k.sess.Eval(ctx, goCode)
}
