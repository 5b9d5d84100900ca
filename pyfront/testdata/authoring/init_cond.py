"""Split-K with init_cond instead of a peeled first step (upstream's
test_matmul_acc_init_cond): the accumulator is never zeroed (here it
holds a stale product of the last chunk), and matmul_acc overwrites it
where k0 == 0. On tiles, and on tensors. In InitCondCreate the
accumulator is a pl.tile.create, in Vec as the DSL creates it, that the
loop carries; InferTileMemorySpace creates it in Acc, where matmul_acc
writes it."""

import pypto.language as pl


@pl.program
class InitCond:
    @pl.function(type=pl.FunctionType.InCore)
    def split_k(
        self,
        a: pl.Tensor[[16, 128], pl.FP32],
        b: pl.Tensor[[128, 32], pl.FP32],
        c: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        stale_a = pl.move(pl.load(a, offsets=[0, 96], shapes=[16, 32], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
        stale_b = pl.move(pl.load(b, offsets=[96, 0], shapes=[32, 32], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        acc = pl.matmul(stale_a, stale_b)
        for k0 in pl.range(0, 128, 32):
            a_l1 = pl.load(a, offsets=[0, k0], shapes=[16, 32], target_memory=pl.Mem.Mat)
            b_l1 = pl.load(b, offsets=[k0, 0], shapes=[32, 32], target_memory=pl.Mem.Mat)
            a_l0 = pl.move(a_l1, target_memory=pl.Mem.Left)
            b_l0 = pl.move(b_l1, target_memory=pl.Mem.Right)
            acc = pl.matmul_acc(acc, a_l0, b_l0, init_cond=(k0 == 0))
        return pl.store(acc, offsets=[0, 0], output_tensor=c)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[16, 128], pl.FP32],
        b: pl.Tensor[[128, 32], pl.FP32],
        c: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        return self.split_k(a, b, c)


@pl.program
class InitCondCreate:
    @pl.function(type=pl.FunctionType.InCore)
    def split_k(
        self,
        a: pl.Tensor[[16, 128], pl.FP32],
        b: pl.Tensor[[128, 32], pl.FP32],
        c: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        acc0 = pl.tile.create([16, 32], dtype=pl.FP32)
        for k0, (acc,) in pl.range(0, 128, 32, init_values=(acc0,)):
            a_l1 = pl.load(a, offsets=[0, k0], shapes=[16, 32], target_memory=pl.Mem.Mat)
            b_l1 = pl.load(b, offsets=[k0, 0], shapes=[32, 32], target_memory=pl.Mem.Mat)
            a_l0 = pl.move(a_l1, target_memory=pl.Mem.Left)
            b_l0 = pl.move(b_l1, target_memory=pl.Mem.Right)
            acc_next = pl.matmul_acc(acc, a_l0, b_l0, init_cond=(k0 == 0))
            out = pl.yield_(acc_next)
        return pl.store(out, offsets=[0, 0], output_tensor=c)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[16, 128], pl.FP32],
        b: pl.Tensor[[128, 32], pl.FP32],
        c: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        return self.split_k(a, b, c)


@pl.program
class InitCondTensor:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        a: pl.Tensor[[16, 128], pl.FP32],
        b: pl.Tensor[[128, 32], pl.FP32],
        c: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ):
        with pl.at(level=pl.Level.CORE_GROUP):
            acc = pl.matmul(a[:, 96:128], b[96:128, :], out_dtype=pl.FP32)
            for k0 in pl.range(0, 128, 32):
                acc = pl.matmul_acc(acc, a[:, k0 : k0 + 32], b[k0 : k0 + 32, :], init_cond=(k0 == 0))
            c = pl.assemble(c, acc, [0, 0])
        return c
