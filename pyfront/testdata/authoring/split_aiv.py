"""Explicit AIV-split regions: `for aiv_id in pl.split_aiv(2, mode=...)`
runs its body on each of a core's two vector lanes. pl.aiv_shard hands a
lane its half of a cube result (rows for UP_DOWN, columns for LEFT_RIGHT),
pl.aic_gather joins the lanes' halves back for the cube, and a NONE region
leaves the split of the work to the lane index."""

import pypto.language as pl

M = 16
K = 32
N = 16


@pl.program
class ShardRows:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        a: pl.Tensor[[M, K], pl.FP32],
        b: pl.Tensor[[K, N], pl.FP32],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="qk"):
            a_l1 = pl.load(a, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
            b_l1 = pl.load(b, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
            a_left = pl.move(a_l1, target_memory=pl.MemorySpace.Left)
            b_right = pl.move(b_l1, target_memory=pl.MemorySpace.Right)
            qk = pl.matmul(a_left, b_right)
            for _i in pl.range(2):
                for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
                    qk_h = pl.aiv_shard(qk)
                    sc = pl.mul(qk_h, 2.0)
                    offset = aiv_id * (M // 2)
                    out = pl.store(sc, [offset, 0], out)
        return out


@pl.program
class GatherBack:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        a: pl.Tensor[[M, K], pl.FP32],
        b: pl.Tensor[[K, N], pl.FP32],
        v: pl.Tensor[[N, N], pl.FP32],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="qkpv"):
            a_l1 = pl.load(a, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
            b_l1 = pl.load(b, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
            a_left = pl.move(a_l1, target_memory=pl.MemorySpace.Left)
            b_right = pl.move(b_l1, target_memory=pl.MemorySpace.Right)
            qk = pl.matmul(a_left, b_right)
            for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
                qk_h = pl.aiv_shard(qk)
                sc = pl.mul(qk_h, 2.0)
                full = pl.aic_gather(sc)
            full_left = pl.move(full, target_memory=pl.MemorySpace.Left)
            v_l1 = pl.load(v, [0, 0], [N, N], target_memory=pl.MemorySpace.Mat)
            v_right = pl.move(v_l1, target_memory=pl.MemorySpace.Right)
            pv = pl.matmul(full_left, v_right)
            out = pl.store(pv, [0, 0], out)
        return out


@pl.jit
def shard_columns(
    a: pl.Tensor[[M, K], pl.FP32],
    w: pl.Tensor[[N, K], pl.FP32],
    out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
) -> pl.Tensor[[M, N], pl.FP32]:
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="cols"):
        acc = pl.matmul(a, w, b_trans=True, out_dtype=pl.FP32)
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.LEFT_RIGHT):
            shard = pl.aiv_shard(acc)
            out[0:M, aiv_id * (N // 2) : aiv_id * (N // 2) + N // 2] = pl.exp(shard)
    return out


@pl.jit
def lanes_by_index(
    a: pl.Tensor[[M, N], pl.FP32],
    c: pl.Out[pl.Tensor[[M, N], pl.FP32]],
):
    for blk in pl.spmd(1):  # noqa: B007
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.NONE):
            base = aiv_id * (M // 2)
            acc = pl.load(a, [base, 0], [M // 2, N])
            for _s in pl.range(1, 4):
                acc = pl.add(acc, pl.load(a, [base, 0], [M // 2, N]))
            c = pl.store(acc, [base, 0], c)
    return c
