"""Valid shapes that come from scalars. Under @pl.jit a scalar parameter
is a specialization constant: the value the call passes replaces every
use in the body, and the parameter stays in the signature. In a
@pl.program the scalar stays a run-time value, carried into the outlined
kernel and its tile's valid_col.
"""

import pypto.language as pl
import torch

ROWS = 16
COLS = 32


@pl.jit
def scaled_prefix(data: pl.Tensor, scale: pl.FP32, vlen: pl.INDEX, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(data, [0, 0], [ROWS, COLS], valid_shape=[ROWS, vlen], target_memory=pl.MemorySpace.Vec)
        padded = pl.tile.fillpad(t, pad_value=pl.PadValue.zero)
        pl.store(pl.mul(padded, scale), [0, 0], out)
    return out


@pl.program
class RuntimePrefix:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        data: pl.Tensor[[16, 32], pl.FP32],
        scale: pl.Scalar[pl.FP32],
        vlen: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(data, [0, 0], [16, 32], valid_shape=[16, vlen], target_memory=pl.MemorySpace.Vec)
            padded = pl.tile.fillpad(t, pad_value=pl.PadValue.zero)
            pl.store(pl.mul(padded, scale), [0, 0], out)
        return out


if __name__ == "__main__":
    data = torch.randn(ROWS, COLS, dtype=torch.float32)
    out = torch.zeros(ROWS, COLS, dtype=torch.float32)
    scaled_prefix(data, 0.5, 20, out)
