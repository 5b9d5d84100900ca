"""Tensor ops on two element types promote as upstream's do: FP32 + BF16
is FP32 (in the kernel the BF16 operand is cast up first, as the tile op
takes one type), INT8 * INT32 is INT32."""

import pypto.language as pl


@pl.program
class Promote:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        a: pl.Tensor[[16, 64], pl.FP32],
        b: pl.Tensor[[16, 64], pl.BF16],
        i: pl.Tensor[[16, 64], pl.INT8],
        j: pl.Tensor[[16, 64], pl.INT32],
        y: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        z: pl.Out[pl.Tensor[[16, 64], pl.INT32]],
    ):
        with pl.at(level=pl.Level.CORE_GROUP):
            s = pl.add(b, a)
            y = pl.assemble(y, s, [0, 0])
            p = pl.mul(i, j)
            z = pl.assemble(z, p, [0, 0])
        return y, z
