"""pl.sin and pl.cos of FP32 tiles (radians). Written, they run as the
sine and cosine rounded to FP32; compiled, LowerCompositeOps expands each
into upstream's FP32 recipe: Cody-Waite range reduction, a branch-free
sign and a degree-9 odd polynomial.
"""

import pypto.language as pl


@pl.program
class Trig:
    @pl.function(type=pl.FunctionType.InCore)
    def waves(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        s: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        c: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ):
        t = pl.load(x, [0, 0], [16, 64])
        pl.store(pl.sin(t), [0, 0], s)
        pl.store(pl.tile.cos(t), [0, 0], c)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        s: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        c: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ):
        self.waves(x, s, c)
