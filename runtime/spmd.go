package runtime

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// SPMD launches: `with pl.spmd(n):` runs its body once per block, each
// block seeing its index through tile.get_block_idx. The blocks of one
// launch run one after another on their rank. On the NPU they run at once
// on different cores; a program whose blocks only split the work (each
// writes its own part) computes the same either way; a launch whose blocks
// meet at system.syncall runs them as coroutines instead (syncall.go).

func init() {
	Register(ir.TileGetBlockIdx, func(x *Exec, c *ir.Call, a []any) (any, error) {
		if x.rc == nil {
			return int64(0), nil
		}
		return int64(x.rc.block), nil
	})
	Register(ir.TileGetBlockNum, func(x *Exec, c *ir.Call, a []any) (any, error) {
		if x.rc == nil || x.rc.blocks == 0 {
			return int64(1), nil
		}
		return int64(x.rc.blocks), nil
	})
}

// spmd runs body once per block of the launch s, whose block count is n,
// and restores the enclosing launch's identity after.
func (x *Exec) spmd(s *ir.ScopeStmt, n any, body func() ([]any, bool, error)) ([]any, bool, error) {
	cnt, err := toInt(n)
	if err != nil {
		return nil, false, posErr(s.Pos, fmt.Errorf("pl.spmd: core_num: %w", err))
	}
	if cnt <= 0 {
		return nil, false, posErr(s.Pos, fmt.Errorf("pl.spmd: core_num must be positive, got %d", cnt))
	}
	if x.rc == nil {
		return nil, false, posErr(s.Pos, fmt.Errorf("pl.spmd launches kernels on a device, not in the host orchestrator"))
	}
	block, blocks := x.rc.block, x.rc.blocks
	defer func() { x.rc.block, x.rc.blocks = block, blocks }()
	for b := 0; b < int(cnt); b++ {
		x.rc.block, x.rc.blocks = b, int(cnt)
		if vals, ret, err := body(); err != nil || ret {
			return vals, ret, err
		}
	}
	return nil, false, nil
}
