"""Mixed kernels in which a vector result feeds the cube: the vector
core computes an operand, the cube multiplies it, and in the second
program the vector core adds the product back. ConvertTensorToTileOps
moves each Vec operand to Mat (upstream's V2C move); the cube's Acc
result crosses back to Vec for the add."""

import pypto.language as pl

M = 16
K = 32
N = 64
N_BLOCK = 16


@pl.program
class VecIntoCube:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        a: pl.Tensor[[32, 32], pl.FP32],
        b: pl.Tensor[[32, 32], pl.FP32],
        output: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
            a_plus_b = pl.add(a, b)
            a_minus_b = pl.sub(a, b)
            out = pl.matmul(a_plus_b, a_minus_b)
            output = pl.assemble(output, out, [0, 0])
        return output


@pl.program
class CubeRoundTrip:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        a: pl.Tensor[[M, K], pl.FP32],
        b: pl.Tensor[[K, N], pl.FP32],
        c: pl.Tensor[[M, N], pl.FP32],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            for nb in pl.range(0, N // N_BLOCK):
                n0 = nb * N_BLOCK
                c_prev = pl.slice(c, [M, N_BLOCK], [0, n0])
                a_add = pl.add(a, 1.0)
                b_chunk = pl.slice(b, [K, N_BLOCK], [0, n0])
                c_next = pl.add(c_prev, pl.matmul(a_add, b_chunk))
                c = pl.assemble(c, c_next, [0, n0])
        return c


@pl.program
class TileOperands:
    """The tile-level form (upstream's mixed prefetch kernel): pl.load
    gives Vec tiles, and pl.tile.matmul takes them as they are; each moves
    to Mat, then to Left or Right, before the cube reads it."""

    @pl.function(type=pl.FunctionType.InCore)
    def main(
        self,
        a: pl.Tensor[[M, K], pl.FP16],
        b: pl.Tensor[[K, N], pl.FP16],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        tile_a = pl.load(a, [0, 0], [M, K])
        tile_b = pl.load(b, [0, 0], [K, N])
        return pl.store(pl.tile.matmul(tile_a, tile_b), [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(
        self,
        a: pl.Tensor[[M, K], pl.FP16],
        b: pl.Tensor[[K, N], pl.FP16],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        out = self.main(a, b, out)
        return out
