"""torch.gather along the last dimension: out[b, k] = inp[b, idx[b, k]],
lowered to one tile.gather per row."""

import pypto.language as pl


@pl.program
class GatherRows:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        inp: pl.Tensor[[4, 16], pl.FP32],
        idx: pl.Tensor[[4, 8], pl.INT32],
        output: pl.Out[pl.Tensor[[4, 8], pl.FP32]],
    ) -> pl.Tensor[[4, 8], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            out = pl.gather(inp, dim=-1, index=idx)
            output = pl.assemble(output, out, [0, 0])
        return output


@pl.program
class GatherFewerRows:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        inp: pl.Tensor[[4, 16], pl.FP32],
        idx: pl.Tensor[[2, 24], pl.INT32],
        output: pl.Out[pl.Tensor[[2, 24], pl.FP32]],
    ) -> pl.Tensor[[2, 24], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            out = pl.tensor.gather(inp, dim=-1, index=idx)
            output = pl.assemble(output, out, [0, 0])
        return output


@pl.program
class GatherMiddle:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        inp: pl.Tensor[[2, 6, 4], pl.FP32],
        idx: pl.Tensor[[2, 3, 4], pl.INT32],
        output: pl.Out[pl.Tensor[[2, 3, 4], pl.FP32]],
    ) -> pl.Tensor[[2, 3, 4], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            out = pl.gather(inp, dim=1, index=idx)
            output = pl.assemble(output, out, [0, 0, 0])
        return output


@pl.program
class GatherMask:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        inp: pl.Tensor[[8, 16], pl.FP32],
        even: pl.Out[pl.Tensor[[8, 8], pl.FP32]],
        odd_bits: pl.Out[pl.Tensor[[8, 8], pl.UINT32]],
        quarter: pl.Out[pl.Tensor[[8, 4], pl.FP32]],
    ):
        with pl.at(level=pl.Level.CORE_GROUP):
            even = pl.assemble(even, pl.gather(inp, mask_pattern=pl.tile.MaskPattern.P0101), [0, 0])
            bits = pl.tensor.gather(inp, mask_pattern=pl.tile.MaskPattern.P1010, output_dtype=pl.UINT32)
            odd_bits = pl.assemble(odd_bits, bits, [0, 0])
            t = pl.load(inp, [0, 0], [8, 16])
            pl.store(pl.tile.gather_mask(t, mask_pattern=pl.tile.MaskPattern.P0100), [0, 0], quarter)
        return even, odd_bits, quarter
