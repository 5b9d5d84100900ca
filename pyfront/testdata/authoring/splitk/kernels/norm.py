"""Each row's sum of squares, chunk by chunk into a running [1, M] sum."""

import pypto.language as pl

from ..config import M, N, N_CHUNK


@pl.jit.inline
def row_sq_sum(x: pl.Tensor, s: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="row_sq_sum"):
        acc = pl.full([1, M], dtype=pl.FP32, value=0.0)
        for kb in pl.range(N // N_CHUNK):
            k0 = kb * N_CHUNK
            chunk = x[:, k0 : k0 + N_CHUNK]
            acc = pl.add(acc, pl.reshape(pl.row_sum(pl.mul(chunk, chunk)), [1, M]))
        s = pl.assemble(s, acc, [0, 0])
    return s
