"""Assembling into a tensor of another element type converts on the way:
a matmul's FP32 accumulator atomic-added straight into BF16 (upstream's
split-K with the fix-pipe down-converting), and a Vec FP32 result cast
to BF16 before its store."""

import pypto.language as pl


@pl.jit
def split_k_bf16(a: pl.Tensor, b: pl.Tensor, c: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="zero_init"):
        c = pl.assemble(c, pl.full([16, 32], dtype=pl.BF16, value=0.0), [0, 0])
    for ks in pl.parallel(0, 4):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="split_k"):
            k0 = ks * 64
            a_k = a[:, k0 : k0 + 64]
            b_k = b[k0 : k0 + 64, :]
            partial = pl.matmul(a_k, b_k, out_dtype=pl.FP32)
            c = pl.assemble(c, partial, [0, 0], atomic=pl.AtomicType.Add)
    return c


@pl.jit
def narrow_store(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="narrow"):
        y = pl.assemble(y, pl.add(x, x), [0, 0])
    return y


if __name__ == "__main__":
    import torch

    split_k_bf16(
        torch.randn(16, 256, dtype=torch.bfloat16),
        torch.randn(256, 32, dtype=torch.bfloat16),
        torch.zeros(16, 32, dtype=torch.bfloat16),
    )
    narrow_store(torch.randn(4, 32), torch.zeros(4, 32, dtype=torch.bfloat16))
