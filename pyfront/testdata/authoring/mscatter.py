"""pl.mscatter stores a tile's elements into a tensor at per-element flat
indices: out[idx[i, j]] = src[i, j]; elements no index names keep their
values."""

import pypto.language as pl


@pl.program
class Mscatter:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        src: pl.Tensor[[4, 16], pl.FP32],
        idx: pl.Tensor[[4, 16], pl.INT32],
        out: pl.InOut[pl.Tensor[[128], pl.FP32]],
    ) -> pl.Tensor[[128], pl.FP32]:
        s: pl.Tile[[4, 16], pl.FP32] = pl.load(src, [0, 0], [4, 16])
        i: pl.Tile[[4, 16], pl.INT32] = pl.load(idx, [0, 0], [4, 16])
        out = pl.mscatter(s, i, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        src: pl.Tensor[[4, 16], pl.FP32],
        idx: pl.Tensor[[4, 16], pl.INT32],
        out: pl.InOut[pl.Tensor[[128], pl.FP32]],
    ) -> pl.Tensor[[128], pl.FP32]:
        out = self.kernel(src, idx, out)
        return out
