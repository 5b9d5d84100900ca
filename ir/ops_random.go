package ir

// Counter-based random tiles (upstream's tile.random, pto.trandom, A5
// only): six INT32 seed words (a 64-bit key, a 128-bit counter), a static
// 2-D shape and an optional narrower valid shape that alone is written;
// dtype UINT32 (default) or INT32, rounds 7 or 10 (default). tensor.random
// is its tensor form, lowered to it in a kernel.

func randomDeduce(tile bool) func(c *DeduceCtx) (Type, error) {
	return func(c *DeduceCtx) (Type, error) {
		for i := 0; i < 6; i++ {
			if dt, err := c.Scalar(i); err != nil || dt != INT32 {
				return nil, c.Fail(i, "an INT32 scalar (a seed word)", c.Args[i])
			}
		}
		shape, err := staticShape(c, 6, -1)
		if err != nil {
			return nil, err
		}
		if len(shape) != 2 {
			return nil, c.Fail(6, "a 2-D shape [rows, cols] (pto.trandom fills rows and columns)", c.Args[6])
		}
		var valid []Expr
		if c.N() == 8 {
			if valid, err = validInside(c, 7, shape); err != nil {
				return nil, err
			}
		}
		dt := UINT32
		if v, ok := c.Kwargs.DType("dtype"); ok {
			dt = v
		}
		if dt != UINT32 && dt != INT32 {
			return nil, c.FailKwarg("dtype", "pl.UINT32 or pl.INT32 (pto.trandom writes 32-bit words)", dt.String())
		}
		if r := c.KwInt("rounds", 10); r != 7 && r != 10 {
			return nil, c.FailKwarg("rounds", "7 or 10 (the rounds the hardware runs)", r)
		}
		if !tile {
			t := &TensorType{Shape: shape, DType: dt}
			if valid != nil {
				t.View = &TensorView{ValidShape: valid}
			}
			return t, nil
		}
		return generatedTile(shape, dt, valid), nil
	}
}

func init() {
	var args []ArgSpec
	for _, n := range []string{"key0", "key1", "counter0", "counter1", "counter2", "counter3"} {
		args = append(args, ArgSpec{Name: n, Int32: true})
	}
	registerTilePair(func() *OpDef {
		return &OpDef{
			Name: "tile.random", Class: ClassCompute, Category: "TileOp",
			Doc: "A tile of counter-based pseudo-random 32-bit words from a 64-bit key (key0, key1) and a 128-bit " +
				"counter (counter0..3), one per element position; only valid_shape is written (TRANDOM, A5).",
			Args:    append(append([]ArgSpec(nil), args...), ArgSpec{Name: "shape"}, ArgSpec{Name: "valid_shape"}),
			MinArgs: 7, MaxArgs: 8,
			Kwargs: []KwargSpec{{Name: "dtype", Kind: KwDType, Default: UINT32}, {Name: "rounds", Kind: KwInt, Default: int64(10)}},
		}
	}, randomDeduce, &TileRandom, &TensorRandom, "The pseudo-random words of tile.random as a tensor (a tile.random in a kernel).")
}
