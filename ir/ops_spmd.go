package ir

// The SPMD identity ops: which block of an Spmd launch (with pl.spmd(n))
// a kernel activation is, and how many blocks the launch has. Outside a
// launch a kernel is block 0 of 1 (upstream's tile_ops/memory.cpp).

func init() {
	for _, op := range []struct {
		name, doc string
		h         **OpDef
	}{
		{"get_block_idx", "This activation's block index in its Spmd launch (0 outside one), an INDEX scalar.", &TileGetBlockIdx},
		{"get_block_num", "The number of blocks of the Spmd launch running this kernel (1 outside one), an INDEX scalar.", &TileGetBlockNum},
		{"get_subblock_idx", "This vector lane's index in its pl.split_aiv region, 0 or 1 (0 outside one), an INDEX scalar.", &TileGetSubblockIdx},
	} {
		*op.h = RegisterOp(&OpDef{
			Name: "tile." + op.name, Class: ClassSetup, Category: "TileOp", Doc: op.doc,
			Deduce: func(c *DeduceCtx) (Type, error) { return &ScalarType{DType: INDEX}, nil },
		})
	}
	// The tensor-scope aliases (pl.get_block_idx, pl.tensor.get_block_idx,
	// ...): the tile ops under another name, which ConvertTensorToTileOps
	// turns into the tile ops.
	for _, op := range []struct {
		name string
		tile *OpDef
		h    **OpDef
	}{
		{"get_block_idx", TileGetBlockIdx, &TensorGetBlockIdx},
		{"get_block_num", TileGetBlockNum, &TensorGetBlockNum},
		{"get_subblock_idx", TileGetSubblockIdx, &TensorGetSubblockIdx},
	} {
		*op.h = RegisterOp(&OpDef{
			Name: "tensor." + op.name, Class: ClassSetup, Category: "TensorOp",
			Doc:     "The tensor-scope form of " + op.tile.Name + ": " + op.tile.Doc,
			Deduce:  op.tile.Deduce,
			AliasOf: op.tile,
		})
	}
}
