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
class GatherFirst:
    """An INT32 gather along the first dimension, by a negative dim."""

    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        inp: pl.Tensor[[5, 3, 8], pl.INT32],
        idx: pl.Tensor[[2, 3, 8], pl.INT32],
        output: pl.Out[pl.Tensor[[2, 3, 8], pl.INT32]],
    ) -> pl.Tensor[[2, 3, 8], pl.INT32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            out = pl.gather(inp, dim=-3, index=idx)
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


@pl.program
class GatherLocal:
    """A gather from a column slice of a tensor built on chip: the created
    tensor becomes a tile, each assemble a tile.assemble, the slice a view,
    and the gather reads rows of that view without changing the source,
    which is echoed back out."""

    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        left: pl.Tensor[[8, 16], pl.FP32],
        right: pl.Tensor[[8, 16], pl.FP32],
        idx: pl.Tensor[[8, 8], pl.INT32],
        echo: pl.Out[pl.Tensor[[8, 32], pl.FP32]],
        output: pl.Out[pl.Tensor[[8, 8], pl.FP32]],
    ) -> tuple[pl.Tensor[[8, 32], pl.FP32], pl.Tensor[[8, 8], pl.FP32]]:
        with pl.at(level=pl.Level.CORE_GROUP):
            local = pl.create_tensor([8, 32], dtype=pl.FP32)
            local = pl.assemble(local, left, [0, 0])
            local = pl.assemble(local, right, [0, 16])
            upper = local[:, 16:32]
            out = pl.tensor.gather(upper, dim=-1, index=idx)
            output = pl.assemble(output, out, [0, 0])
            echo = pl.assemble(echo, local, [0, 0])
        return echo, output
