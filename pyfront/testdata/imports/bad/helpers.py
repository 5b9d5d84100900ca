"""A helper with an unknown op: its error names this file."""

import pypto.language as pl

SIZE = 64


@pl.jit.inline
def twice(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        y = pl.assemble(y, pl.add(x, pl.no_such_op(x)), [0, 0])
    return y


@pl.jit.incore
def kernel(x: pl.Tensor[[1, SIZE], pl.FP32]):
    return x
