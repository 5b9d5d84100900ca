"""Slice windows that overhang their source: a valid shape inside the
window (or clamp=True) keeps what is read inside the source, and the
result's valid shape says how much is real. Only the valid region of a
source is written, so what lies past it in the target stays as it was."""

import pypto.language as pl


@pl.program
class SliceWindows:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        a: pl.Tensor[[15, 64], pl.FP32],
        over: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        clamped: pl.Out[pl.Tensor[[8, 64], pl.FP32]],
        narrowed: pl.Out[pl.Tensor[[8, 64], pl.FP32]],
    ):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.slice(a, [16, 64], [0, 0], valid_shape=[15, 64])
            over[:] = pl.exp(t)
            c = pl.slice(a, [8, 64], [10, 0], clamp=True)
            clamped = pl.assemble(clamped, pl.add(c, 1.0), [0, 0])
            n = pl.slice(a, [8, 64], [0, 0], valid_shape=[8, 32])
            narrowed[:] = pl.fillpad(n, pad_value=pl.PadValue.zero)
        return over, clamped, narrowed
