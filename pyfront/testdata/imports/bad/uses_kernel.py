import pypto.language as pl

from .helpers import kernel


@pl.jit
def entry(x: pl.Tensor[[1, 64], pl.FP32]):
    x = kernel(x)
    return x
