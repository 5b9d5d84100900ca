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


@pl.function(type=pl.FunctionType.InCore)
def broken(x: pl.Tensor[[1, SIZE], pl.FP32], y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]]) -> pl.Tensor[[1, SIZE], pl.FP32]:
    return pl.store(pl.no_such_tile_op(pl.load(x, [0, 0], [1, SIZE])), [0, 0], y)
