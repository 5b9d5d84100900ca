import pypto.language as pl
from torch import float32


@pl.jit
def entry(x: pl.Tensor[[1, 64], pl.FP32]):
    y = pl.cast(x, target_type=float32)
    return y
