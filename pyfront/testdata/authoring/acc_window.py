"""Column windows of one Acc tile as matmul destinations: each window is a
view of the tile's memory, so accumulating into it (over K, restarting
with init_cond) fills that part of the tile, and storing the whole tile
writes every window's product."""

import pypto.language as pl

M, K, NT, TILES, KT = 16, 64, 32, 2, 32
N = NT * TILES


@pl.program
class AccWindow:
    @pl.function(type=pl.FunctionType.InCore)
    def windows(
        self,
        a: pl.Tensor[[M, K], pl.FP32],
        b: pl.Tensor[[K, N], pl.FP32],
        c: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        acc = pl.tile.create([M, N], pl.FP32, target_memory=pl.MemorySpace.Acc)
        for t in pl.range(TILES):
            for k0 in pl.range(0, K, KT):
                a_l1 = pl.load(a, offsets=[0, k0], shapes=[M, KT], target_memory=pl.MemorySpace.Mat)
                b_l1 = pl.load(b, offsets=[k0, t * NT], shapes=[KT, NT], target_memory=pl.MemorySpace.Mat)
                a_l0 = pl.move(a_l1, target_memory=pl.MemorySpace.Left)
                b_l0 = pl.move(b_l1, target_memory=pl.MemorySpace.Right)
                win = pl.tile.slice(acc, [M, NT], [0, t * NT])
                win = pl.matmul_acc(win, a_l0, b_l0, init_cond=(k0 == 0))
        out = pl.store(acc, offsets=[0, 0], output_tensor=c)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(
        self,
        a: pl.Tensor[[M, K], pl.FP32],
        b: pl.Tensor[[K, N], pl.FP32],
        c: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        c = self.windows(a, b, c)
        return c
