"""Sorting with the vector unit's proposals: sort32 sorts 32-element
blocks into value/index pairs, mrgsort format1 merges four runs at a
time, format2 merges whole rows; gather_mask reads the values (P0101)
and the indices (P1010, as UINT32) back out."""

import pypto.language as pl


@pl.program
class SortRow:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        src: pl.Tensor[[1, 256], pl.FP32],
        idx: pl.Tensor[[1, 256], pl.UINT32],
        blocks: pl.Out[pl.Tensor[[1, 512], pl.FP32]],
        vals: pl.Out[pl.Tensor[[1, 256], pl.FP32]],
        order: pl.Out[pl.Tensor[[1, 256], pl.UINT32]],
    ) -> tuple[pl.Tensor[[1, 512], pl.FP32], pl.Tensor[[1, 256], pl.FP32], pl.Tensor[[1, 256], pl.UINT32]]:
        s: pl.Tile[[1, 256], pl.FP32] = pl.load(src, [0, 0], [1, 256])
        i: pl.Tile[[1, 256], pl.UINT32] = pl.load(idx, [0, 0], [1, 256])
        sorted32: pl.Tile[[1, 512], pl.FP32] = pl.tile.sort32(s, i)
        blocks = pl.store(sorted32, [0, 0], blocks)
        runs: pl.Tile[[1, 512], pl.FP32] = pl.tile.mrgsort(sorted32, block_len=64)
        halves: pl.Tile[[1, 512], pl.FP32] = pl.tile.mrgsort(runs, block_len=256)
        lo: pl.Tile[[1, 256], pl.FP32] = pl.tile.slice(halves, [1, 256], [0, 0])
        hi: pl.Tile[[1, 256], pl.FP32] = pl.tile.slice(halves, [1, 256], [0, 256])
        tmp: pl.Tile[[1, 512], pl.FP32] = pl.tile.create([1, 512], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
        merged: pl.Tile[[1, 512], pl.FP32] = pl.tile.mrgsort(lo, hi, tmp=tmp)
        v: pl.Tile[[1, 256], pl.FP32] = pl.tile.gather_mask(merged, mask_pattern=pl.tile.MaskPattern.P0101)
        o: pl.Tile[[1, 256], pl.UINT32] = pl.tile.gather_mask(merged, mask_pattern=pl.tile.MaskPattern.P1010, output_dtype=pl.UINT32)
        vals = pl.store(v, [0, 0], vals)
        order = pl.store(o, [0, 0], order)
        return blocks, vals, order

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        src: pl.Tensor[[1, 256], pl.FP32],
        idx: pl.Tensor[[1, 256], pl.UINT32],
        blocks: pl.Out[pl.Tensor[[1, 512], pl.FP32]],
        vals: pl.Out[pl.Tensor[[1, 256], pl.FP32]],
        order: pl.Out[pl.Tensor[[1, 256], pl.UINT32]],
    ) -> tuple[pl.Tensor[[1, 512], pl.FP32], pl.Tensor[[1, 256], pl.FP32], pl.Tensor[[1, 256], pl.UINT32]]:
        blocks, vals, order = self.kernel(src, idx, blocks, vals, order)
        return blocks, vals, order


@pl.program
class SortTensors:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        src: pl.Tensor[[1, 128], pl.FP32],
        idx: pl.Tensor[[1, 128], pl.UINT32],
        vals: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
    ):
        with pl.at(level=pl.Level.CORE_GROUP):
            left = pl.sort32(pl.slice(src, [1, 64], [0, 0]), pl.slice(idx, [1, 64], [0, 0]))
            right = pl.sort32(pl.slice(src, [1, 64], [0, 64]), pl.slice(idx, [1, 64], [0, 64]))
            merged = pl.tensor.mrgsort(pl.tensor.mrgsort(left, block_len=64), pl.tensor.mrgsort(right, block_len=64))
            vals = pl.assemble(vals, pl.tensor.gather(merged, mask_pattern=pl.tile.MaskPattern.P0101), [0, 0])
        return vals
