"""An SPMD launch whose block count comes from a dynamic dimension, with
the parameters' dynamic dimension bound by bind_dynamic, as upstream's
tests write it: each block adds one to its two rows."""

import pypto.language as pl
import torch

B_DYN = pl.dynamic("B_DYN")


@pl.jit
def pairs(x: pl.Tensor[[B_DYN, 16], pl.FP32], out: pl.Out[pl.Tensor[[B_DYN, 16], pl.FP32]]):
    x.bind_dynamic(0, B_DYN)
    out.bind_dynamic(0, B_DYN)
    cores = pl.tensor.dim(x, 0) // 2
    for g in pl.spmd(cores, name_hint="pair"):
        r = g * 2
        out[r : r + 1, :] = pl.add(x[r : r + 1, :], 1.0)
        out[r + 1 : r + 2, :] = pl.add(x[r + 1 : r + 2, :], 1.0)
    return out
