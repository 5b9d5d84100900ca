package passes

import (
	"fmt"

	"github.com/ptorepl/ptorepl/ir"
)

// LowerCompositeOps' rules for tile.sin and tile.cos: upstream's FP32
// recipe (its lower_composite_ops_pass, after CANN's vector unary.h).
// x is range-reduced to t in [-pi/2, pi/2] by k = round(x / pi) with a
// four-part Cody-Waite split of pi (cos: k = rint(x / pi + 1/2), with
// pi/2 added in two parts), the sign (-1)^k is computed without a branch,
// and sin(t) is t times a degree-9 odd polynomial in t^2. The simulator
// runs tile.sin as written with math.Sin rounded to FP32; the compiled
// program computes this recipe, within a few FP32 ulps of it.

// The recipe's FP32 constants, as upstream spells them.
const (
	trigPiInv      = 0.31830988732818603515625 // 1/pi
	trigPiV2       = 3.140625                  // pi, head
	trigPiC1       = 0.0009670257568359375     // pi, split 1
	trigPiC2       = 6.2771141529083251953125e-7
	trigPiC3       = 1.21644916362129151821e-10
	trigPiC4       = -1.0290623200529979163e-13
	trigPiHalfHead = 1.57079637050628662109375 // pi/2, head (cos)
	trigPiHalfTail = -4.371139000189375e-8     // pi/2, tail (cos)
	trigR0         = 2.604926501e-6
	trigR1         = -1.980894471e-4
	trigR2         = 8.333049340e-3
	trigR3         = -1.666665792e-1
)

// Cast modes of tile.cast, as upstream numbers them.
const (
	castNone  = 0
	castRint  = 1
	castRound = 2
	castFloor = 3
)

func lowerSin(b *lowering, c *ir.Call) (ir.Expr, error) { return lowerSinCos(b, c, false) }
func lowerCos(b *lowering, c *ir.Call) (ir.Expr, error) { return lowerSinCos(b, c, true) }

func lowerSinCos(b *lowering, c *ir.Call, isCos bool) (ir.Expr, error) {
	x := c.Args[0]
	if t, ok := x.Type().(*ir.TileType); !ok || t.DType != ir.FP32 {
		return nil, fmt.Errorf("takes one FP32 tile, given %s", ir.Describe(x))
	}
	f32 := func(v float64) ir.Expr { return &ir.ConstFloat{Value: float64(float32(v)), DType: ir.FP32, Pos: b.pos} }
	muls := func(name string, t ir.Expr, v float64) *ir.Var {
		return b.bind(name, b.op(ir.TileMuls, []ir.Expr{t, f32(v)}, nil))
	}
	adds := func(name string, t ir.Expr, v float64) *ir.Var {
		return b.bind(name, b.op(ir.TileAdds, []ir.Expr{t, f32(v)}, nil))
	}
	bin := func(name string, op *ir.OpDef, l, r ir.Expr) *ir.Var {
		return b.bind(name, b.op(op, []ir.Expr{l, r}, nil))
	}
	castTo := func(name string, t ir.Expr, dt ir.DataType, mode int64) *ir.Var {
		return b.bind(name, b.op(ir.TileCast, []ir.Expr{t}, ir.Kwargs{{Key: "target_type", Value: dt}, {Key: "mode", Value: mode}}))
	}
	// 1. range reduction
	piInvX := muls("pi_inv_x", x, trigPiInv)
	var ki *ir.Var
	if isCos {
		ki = castTo("k_i", adds("k_pre", piInvX, 0.5), ir.INT32, castRint)
	} else {
		ki = castTo("k_i", piInvX, ir.INT32, castRound)
	}
	kf := castTo("k_f", ki, ir.FP32, castNone)
	t := bin("t0", ir.TileSub, x, muls("k_pi_v2", kf, trigPiV2))
	t = bin("t1", ir.TileSub, t, muls("k_pi_c1", kf, trigPiC1))
	if isCos {
		t = adds("t1h", t, trigPiHalfHead)
	}
	t = bin("t2", ir.TileSub, t, muls("k_pi_c2", kf, trigPiC2))
	t = bin("t3", ir.TileSub, t, muls("k_pi_c3", kf, trigPiC3))
	t = bin("t4", ir.TileSub, t, muls("k_pi_c4", kf, trigPiC4))
	if isCos {
		t = adds("t4t", t, trigPiHalfTail)
	}
	// 2. sign = floor(k / 2) * 4 - 2k + 1
	floorHalf := castTo("floor_hk_f", castTo("floor_hk_i", muls("half_k", kf, 0.5), ir.INT32, castFloor), ir.FP32, castNone)
	sign := adds("sign", bin("sign_pre", ir.TileAdd, muls("floor_x4", floorHalf, 4), muls("neg2_k", kf, -2)), 1)
	// 3. P(t^2) by Horner
	t2 := bin("t2sq", ir.TileMul, t, t)
	p := adds("p_r1", muls("p_r0", t2, trigR0), trigR1)
	p = adds("p_r2", bin("p_t2_r1", ir.TileMul, p, t2), trigR2)
	p = adds("p_r3", bin("p_t2_r2", ir.TileMul, p, t2), trigR3)
	p = adds("p_one", bin("p_t2_r3", ir.TileMul, p, t2), 1)
	// 4. sign * t * P(t^2)
	return b.op(ir.TileMul, []ir.Expr{sign, bin("t_p", ir.TileMul, t, p)}, nil), nil
}
