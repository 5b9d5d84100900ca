"""Writes of a padded source narrowed by pl.set_validshape: only the valid
region is written, so a target sized to it takes the write (upstream #1509)."""

import pypto.language as pl


@pl.program
class NarrowAssemble:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        src: pl.Tensor[[16, 8], pl.FP32],
        rhs: pl.Tensor[[16, 8], pl.FP32],
        direct: pl.Out[pl.Tensor[[16, 4], pl.FP32]],
        subscript: pl.Out[pl.Tensor[[16, 4], pl.FP32]],
        inc: pl.Out[pl.Tensor[[16, 4], pl.FP32]],
        summed: pl.Out[pl.Tensor[[16, 4], pl.FP32]],
        wide: pl.InOut[pl.Tensor[[20, 12], pl.FP32]],
    ):
        with pl.at(level=pl.Level.CORE_GROUP):
            narrowed = pl.set_validshape(src, 16, 4)
            direct = pl.assemble(direct, narrowed, [0, 0])
            subscript[:, :] = narrowed
            inc = pl.assemble(inc, pl.add(narrowed, 1.0), [0, 0])
            other = pl.set_validshape(rhs, 16, 4)
            summed = pl.assemble(summed, pl.add(narrowed, other), [0, 0])
            wide[2:18, 0:4] = narrowed
        return direct, subscript, inc, summed, wide
