"""c = a @ b with K in chunks: upstream's split-K idiom, the first chunk a
matmul and the others matmul_acc into the same accumulator."""

import pypto.language as pl

from ..config import K, K_CHUNK, M, N, N_CHUNK


@pl.jit.inline
def split_k(a: pl.Tensor, b: pl.Tensor, c: pl.Out[pl.Tensor]):
    for n0 in pl.parallel(0, N, N_CHUNK):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="split_k"):
            acc = pl.create_tensor([M, N_CHUNK], dtype=pl.FP32)
            for kb in pl.range(K // K_CHUNK):
                k0 = kb * K_CHUNK
                a_k = a[:, k0 : k0 + K_CHUNK]
                b_k = b[k0 : k0 + K_CHUNK, n0 : n0 + N_CHUNK]
                if k0 == 0:
                    acc = pl.matmul(a_k, b_k, out_dtype=pl.FP32)
                else:
                    acc = pl.matmul_acc(acc, a_k, b_k)
            c = pl.assemble(c, acc, [0, n0])
    return c
