"""InitMemRef and AllocateMemoryAddr, in upstream's Before/Expected style.

Before is a kernel and the orchestrator that calls it. Initialized is what
InitMemRef makes of it: every tensor of every function gets a DDR MemRef,
a store's result its output's, a slice its byte offset inside its source
(an expression of the loop variable in the orchestrator) and the span it
can touch; tile buffers start at the placeholder 0. Planned is what
AllocateMemoryAddr then makes of it: each buffer at its address, the slice
at its offset past it. Carry carries two tiles through a for loop and one
through a while loop, whose results print without their types. CarryIf
carries tiles that an if defines, and each branch reads the iter-arg after
writing the value it yields. CarryNested carries an inner loop's result,
whose body reads the outer iter-arg on every iteration.
"""
import pypto.language as pl

@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[8, 64], pl.FP32], y: pl.Out[pl.Tensor[[4, 64], pl.FP32]]) -> pl.Tensor[[4, 64], pl.FP32]:
        t: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [8, 64], [8, 64], target_memory=pl.Mem.Vec)
        lower: pl.Tile[[4, 64], pl.FP32, pl.Mem.Vec] = pl.tile.slice(t, [4, 64], [4, 0])
        twice: pl.Tile[[4, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(lower, lower)
        r: pl.Tensor[[4, 64], pl.FP32] = pl.tile.store(twice, [0, 0], y)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, xs: pl.Tensor[[16, 64], pl.FP32], ys: pl.Out[pl.Tensor[[8, 64], pl.FP32]]) -> pl.Tensor[[8, 64], pl.FP32]:
        for i in pl.range(2):
            xi: pl.Tensor[[8, 64], pl.FP32] = pl.tensor.slice(xs, [8, 64], [i * 8, 0])
            yi: pl.Tensor[[4, 64], pl.FP32] = pl.tensor.slice(ys, [4, 64], [i * 4, 0])
            self.kernel(xi, yi)
        return ys


@pl.program
class Initialized:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[8, 64], pl.FP32, pl.MemRef("mem_ddr_0", 0, 2048)], y: pl.Out[pl.Tensor[[4, 64], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)]]) -> pl.Tensor[[4, 64], pl.FP32]:
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 2048)
        mem_vec_3: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        t: pl.Tile[[8, 64], pl.FP32, pl.MemRef(mem_vec_2, 0, 2048), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [8, 64], [8, 64], target_memory=pl.Mem.Vec)
        lower: pl.Tile[[4, 64], pl.FP32, pl.MemRef(mem_vec_2, 1024, 1024), pl.Mem.Vec] = pl.tile.slice(t, [4, 64], [4, 0])
        twice: pl.Tile[[4, 64], pl.FP32, pl.MemRef(mem_vec_3, 0, 1024), pl.Mem.Vec] = pl.tile.add(lower, lower)
        r: pl.Tensor[[4, 64], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)] = pl.tile.store(twice, [0, 0], y)
        return r
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, xs: pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_0", 0, 4096)], ys: pl.Out[pl.Tensor[[8, 64], pl.FP32, pl.MemRef("mem_ddr_1", 0, 2048)]]) -> pl.Tensor[[8, 64], pl.FP32]:
        for i in pl.range(2):
            xi: pl.Tensor[[8, 64], pl.FP32, pl.MemRef("mem_ddr_0", i * 8 * 64 * 4, 2048)] = pl.tensor.slice(xs, [8, 64], [i * 8, 0])
            yi: pl.Tensor[[4, 64], pl.FP32, pl.MemRef("mem_ddr_1", i * 4 * 64 * 4, 1024)] = pl.tensor.slice(ys, [4, 64], [i * 4, 0])
            self.kernel(xi, yi)
        return ys


@pl.program
class Planned:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[8, 64], pl.FP32, pl.MemRef("mem_ddr_0", 0, 2048)], y: pl.Out[pl.Tensor[[4, 64], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)]]) -> pl.Tensor[[4, 64], pl.FP32]:
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 2048)
        mem_vec_3: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        t: pl.Tile[[8, 64], pl.FP32, pl.MemRef(mem_vec_2, 0, 2048), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [8, 64], [8, 64], target_memory=pl.Mem.Vec)
        lower: pl.Tile[[4, 64], pl.FP32, pl.MemRef(mem_vec_2, 1024, 1024), pl.Mem.Vec] = pl.tile.slice(t, [4, 64], [4, 0])
        twice: pl.Tile[[4, 64], pl.FP32, pl.MemRef(mem_vec_3, 2048, 1024), pl.Mem.Vec] = pl.tile.add(lower, lower)
        r: pl.Tensor[[4, 64], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)] = pl.tile.store(twice, [0, 0], y)
        return r
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, xs: pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_0", 0, 4096)], ys: pl.Out[pl.Tensor[[8, 64], pl.FP32, pl.MemRef("mem_ddr_1", 0, 2048)]]) -> pl.Tensor[[8, 64], pl.FP32]:
        for i in pl.range(2):
            xi: pl.Tensor[[8, 64], pl.FP32, pl.MemRef("mem_ddr_0", i * 8 * 64 * 4, 2048)] = pl.tensor.slice(xs, [8, 64], [i * 8, 0])
            yi: pl.Tensor[[4, 64], pl.FP32, pl.MemRef("mem_ddr_1", i * 4 * 64 * 4, 1024)] = pl.tensor.slice(ys, [4, 64], [i * 4, 0])
            self.kernel(xi, yi)
        return ys


@pl.program
class Carry:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], n: pl.Scalar[pl.INDEX], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        a0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        b0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(a0, 2.0)
        for i, (a, b) in pl.range(4, init_values=(a0, b0)):
            a1: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(a, b)
            b1: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.sub(b, a)
            a_out, b_out = pl.yield_(a1, b1)
        k0: pl.Scalar[pl.INDEX] = 0
        for (c, k) in pl.while_(init_values=(a_out, k0)):
            pl.cond(k < n)
            c1: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(c, b_out)
            k1: pl.Scalar[pl.INDEX] = k + 1
            c_out, k_out = pl.yield_(c1, k1)
        r: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(c_out, [0, 0], y)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP32], n: pl.Scalar[pl.INDEX], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        r: pl.Tensor[[16, 64], pl.FP32] = self.kernel(x, n, y)
        return r


@pl.program
class Swap:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        p0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        q0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(p0, 2.0)
        for j, (p, q) in pl.range(4, init_values=(p0, q0)):
            p1: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(p, q)
            p_out, q_out = pl.yield_(p1, p)
        for j2, (u, v) in pl.range(3, init_values=(p_out, q_out)):
            u_out, v_out = pl.yield_(v, u)
        r: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(v_out, [0, 0], y)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        r: pl.Tensor[[16, 64], pl.FP32] = self.kernel(x, y)
        return r


@pl.program
class CarryIf:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        a0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        b0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(a0, 2.0)
        for i, (a, b) in pl.range(4, init_values=(a0, b0)):
            if i < 2:
                a1: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(a, b)
                b1: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.sub(b, a)
                a2, b2 = pl.yield_(a1, b1)
            else:
                a3: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(a, 0.5)
                b3: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(b, a)
                a2, b2 = pl.yield_(a3, b3)
            a_out, b_out = pl.yield_(a2, b2)
        s: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(a_out, b_out)
        r: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(s, [0, 0], y)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        r: pl.Tensor[[16, 64], pl.FP32] = self.kernel(x, y)
        return r


@pl.program
class CarryNested:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        a0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        for i, (a,) in pl.range(3, init_values=(a0,)):
            for j, (c,) in pl.range(2, init_values=(a,)):
                c1: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(c, a)
                c_out = pl.yield_(c1)
            a_out = pl.yield_(c_out)
        r: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(a_out, [0, 0], y)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        r: pl.Tensor[[16, 64], pl.FP32] = self.kernel(x, y)
        return r


@pl.program
class Annotated:
    # Its tensors carry MemRefs of the program's own, its tiles none: InitMemRef plans it.
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[8, 32], pl.FP32, pl.MemRef("mem_ddr_0", 0, 1024)], y: pl.Out[pl.Tensor[[8, 32], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)]]) -> pl.Tensor[[8, 32], pl.FP32]:
        t: pl.Tile[[8, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [8, 32], [8, 32], target_memory=pl.Mem.Vec)
        u: pl.Tile[[8, 32], pl.FP32, pl.Mem.Vec] = pl.tile.add(t, t)
        r: pl.Tensor[[8, 32], pl.FP32] = pl.tile.store(u, [0, 0], y)
        return r
