package pto

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// tile.random → pto.trandom of its six i32 seed words into the result
// tile (the shape and valid shape are the result's type). The custom form
// has no slot for attributes, so a rounds other than the default 10 is
// spelled in MLIR's generic form, as upstream emits it.
func emitRandom(c *Ctx, call *ir.Call, res *ir.Var) error {
	seeds := make([]value, 6)
	for i := range seeds {
		v, err := c.as(call.Args[i], ir.INT32, "")
		if err != nil {
			return err
		}
		seeds[i] = v
	}
	r, err := c.allocTile(res)
	if err != nil {
		return err
	}
	rounds := call.Kwargs.Int("rounds", 10)
	if rounds == 10 {
		c.insOuts("pto.trandom", seeds, []value{r}, nil)
		return nil
	}
	ops := append(seeds, r)
	rattr := attr{name: "rounds", val: fmt.Sprintf("%d : i32", rounds)}
	c.stmtOp("pto.trandom", ops, []attr{rattr}, fmt.Sprintf(`"pto.trandom"(%s) {rounds = %s} : (%s) -> ()`, ssaList(ops), rattr.val, typeList(ops)))
	return nil
}

func init() { Register(ir.TileRandom, emitRandom) }
