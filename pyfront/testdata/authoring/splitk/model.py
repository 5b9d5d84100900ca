"""A model split over a package, as upstream's qwen3_jit example is: the
entry here, its constants and kernels in the files beside it."""

import pypto.language as pl

from .config import K, M, N
from .kernels.matmul import split_k
from .kernels.norm import row_sq_sum


@pl.jit
def model(a: pl.Tensor, b: pl.Tensor, c: pl.Out[pl.Tensor], s: pl.Out[pl.Tensor]):
    c = split_k(a, b, c)
    s = row_sq_sum(c, s)
    return s


if __name__ == "__main__":
    import torch

    args = [
        torch.randn(M, K),
        torch.randn(K, N),
        torch.zeros(M, N),
        torch.zeros(1, M),
    ]
    model(*args)
