"""A factory sizing its program with a plain Python helper, as upstream's
examples/utils do: the reader runs the helper when the factory calls it
(its keyword-only parameter, its default, its check that raises)."""

import pypto.language as pl

TILE_M = 8
COLS = 32


def stripe_shape(*, stripes: int = 2) -> tuple[int, int]:
    """Rows and columns of the input: one TILE_M stripe per branch."""
    if stripes <= 0:
        raise ValueError(f"stripes must be positive, got {stripes}")
    return stripes * TILE_M, COLS


def build_scale(*, stripes: int = 2):
    rows, cols = stripe_shape(stripes=stripes)

    @pl.program
    class Scale:
        @pl.function(type=pl.FunctionType.Opaque)
        def main(self, x: pl.Tensor[[rows, cols], pl.FP32], y: pl.Out[pl.Tensor[[rows, cols], pl.FP32]]):
            with pl.at(level=pl.Level.CORE_GROUP):
                y = pl.assemble(y, pl.mul(x, 3.0), [0, 0])
            return y

    return Scale
