"""torch.scatter along the last dimension: out[i, idx[i, j]] = val[i, j],
the other elements of base kept; one tile.scatter at flat indices."""

import pypto.language as pl


@pl.program
class ScatterRows:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        base: pl.Tensor[[8, 16], pl.FP32],
        idx: pl.Tensor[[8, 8], pl.INT32],
        val: pl.Tensor[[8, 8], pl.FP32],
        output: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
    ) -> pl.Tensor[[8, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            out = pl.tensor.scatter(base, dim=-1, index=idx, src=val)
            output = pl.assemble(output, out, [0, 0])
        return output


@pl.program
class ScatterMask:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        inp: pl.Tensor[[8, 8], pl.FP32],
        dst: pl.Tensor[[8, 16], pl.FP32],
        output: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
    ) -> pl.Tensor[[8, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            out = pl.tensor.scatter(inp, mask_pattern=pl.tile.MaskPattern.P1010, dst=dst)
            output = pl.assemble(output, out, [0, 0])
        return output
