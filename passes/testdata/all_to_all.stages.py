# ==== Input
# pypto.program: AllToAll
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class AllToAll:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 16], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]):
        data_1: pld.DistributedTensor[[4, 16], pl.FP32] = pld.tensor.all_to_all(x, data, signal)
        out: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data_1, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        y_1: pl.Tensor[[4, 16], pl.FP32] = pl.tile.store(out, [0, 0], y)
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[4, 4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 4, 16], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(pld.system.world_size() * 64)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(pld.system.world_size() * 4)
        for r in pl.range(pld.system.world_size()):
            data: pld.DistributedTensor[[4, 16], pl.FP32] = pld.tensor.window(data_buf, [4, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[4, 1], pl.INT32] = pld.tensor.window(signal_buf, [4, 1], dtype=pl.INT32)
            self.kernel(pl.tensor.slice(x, [1, 4, 16], [r, 0, 0], [], [0]), pl.tensor.slice(y, [1, 4, 16], [r, 0, 0], [], [0]), data, signal, device=r)
# ==== CtrlFlowTransform: unchanged

# ==== ConvertToSSA
# pypto.program: AllToAll
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class AllToAll:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 16], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]):
        data__ssa_v0: pld.DistributedTensor[[4, 16], pl.FP32] = pld.tensor.all_to_all(x, data, signal)
        out: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[4, 16], pl.FP32] = pl.tile.store(out, [0, 0], y)
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[4, 4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 4, 16], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(pld.system.world_size() * 64)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(pld.system.world_size() * 4)
        for r in pl.range(pld.system.world_size()):
            data: pld.DistributedTensor[[4, 16], pl.FP32] = pld.tensor.window(data_buf, [4, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[4, 1], pl.INT32] = pld.tensor.window(signal_buf, [4, 1], dtype=pl.INT32)
            self.kernel(pl.tensor.slice(x, [1, 4, 16], [r, 0, 0], [], [0]), pl.tensor.slice(y, [1, 4, 16], [r, 0, 0], [], [0]), data, signal, device=r)
# ==== FlattenCallExpr
# pypto.program: AllToAll
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class AllToAll:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 16], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]):
        data__ssa_v0: pld.DistributedTensor[[4, 16], pl.FP32] = pld.tensor.all_to_all(x, data, signal)
        out: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[4, 16], pl.FP32] = pl.tile.store(out, [0, 0], y)
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[4, 4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 4, 16], pl.FP32]]):
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 64)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v1 * 4)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v2):
            data: pld.DistributedTensor[[4, 16], pl.FP32] = pld.tensor.window(data_buf, [4, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[4, 1], pl.INT32] = pld.tensor.window(signal_buf, [4, 1], dtype=pl.INT32)
            t__tmp_v3: pl.Tensor[[4, 16], pl.FP32] = pl.tensor.slice(x, [1, 4, 16], [r, 0, 0], [], [0])
            t__tmp_v4: pl.Tensor[[4, 16], pl.FP32] = pl.tensor.slice(y, [1, 4, 16], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v3, t__tmp_v4, data, signal, device=r)
# ==== OutlineHierarchyScopes: unchanged

# ==== OutlineIncoreScopes: unchanged

# ==== ConvertTensorToTileOps
# pypto.program: AllToAll
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class AllToAll:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 16], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]):
        data__ssa_v0: pld.DistributedTensor[[4, 16], pl.FP32] = pld.tensor.all_to_all(x, data, signal)
        out: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[4, 16], pl.FP32] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[4, 4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 4, 16], pl.FP32]]):
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 64)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v1 * 4)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v2):
            data: pld.DistributedTensor[[4, 16], pl.FP32] = pld.tensor.window(data_buf, [4, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[4, 1], pl.INT32] = pld.tensor.window(signal_buf, [4, 1], dtype=pl.INT32)
            t__tmp_v3: pl.Tensor[[4, 16], pl.FP32] = pl.tensor.slice(x, [1, 4, 16], [r, 0, 0], [], [0])
            t__tmp_v4: pl.Tensor[[4, 16], pl.FP32] = pl.tensor.slice(y, [1, 4, 16], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v3, t__tmp_v4, data, signal, device=r)
# ==== LowerCompositeOps
# pypto.program: AllToAll
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class AllToAll:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 16], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]):
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        aa_stage: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        for dest in pl.range(nranks_idx):
            pld.tile.put(data, dest, x, aa_stage, [my_rank, 0], [dest, 0], [1, 16], atomic=pl.AtomicType.None_)
        for peer in pl.range(nranks_idx):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks_idx):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        for src_1 in pl.range(nranks_idx):
            if src_1 != my_rank:
                pld.system.notify(signal, my_rank, [src_1, 0], pl.const(-1, pl.INT32), op=0)
        data__ssa_v0: pld.DistributedTensor[[4, 16], pl.FP32] = data
        out: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[4, 16], pl.FP32] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[4, 4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 4, 16], pl.FP32]]):
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 64)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v1 * 4)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v2):
            data: pld.DistributedTensor[[4, 16], pl.FP32] = pld.tensor.window(data_buf, [4, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[4, 1], pl.INT32] = pld.tensor.window(signal_buf, [4, 1], dtype=pl.INT32)
            t__tmp_v3: pl.Tensor[[4, 16], pl.FP32] = pl.tensor.slice(x, [1, 4, 16], [r, 0, 0], [], [0])
            t__tmp_v4: pl.Tensor[[4, 16], pl.FP32] = pl.tensor.slice(y, [1, 4, 16], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v3, t__tmp_v4, data, signal, device=r)
# ==== FlattenTileNdTo2D: unchanged

# ==== InferTileMemorySpace: unchanged

# ==== InitMemRef
# pypto.program: AllToAll
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class AllToAll:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 256)], y: pl.Out[pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 256)]], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 256)]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 16)]]):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 256)
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        aa_stage: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_4, 0, 64), pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        for dest in pl.range(nranks_idx):
            pld.tile.put(data, dest, x, aa_stage, [my_rank, 0], [dest, 0], [1, 16], atomic=pl.AtomicType.None_)
        for peer in pl.range(nranks_idx):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks_idx):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        for src_1 in pl.range(nranks_idx):
            if src_1 != my_rank:
                pld.system.notify(signal, my_rank, [src_1, 0], pl.const(-1, pl.INT32), op=0)
        data__ssa_v0: pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_5", 0, 256)] = data
        out: pl.Tile[[4, 16], pl.FP32, pl.MemRef(mem_vec_6, 0, 256), pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 256)] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[4, 4, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 1024)], y: pl.Out[pl.Tensor[[4, 4, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)]]):
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 64)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v1 * 4)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v2):
            data: pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 256)] = pld.tensor.window(data_buf, [4, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[4, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 16)] = pld.tensor.window(signal_buf, [4, 1], dtype=pl.INT32)
            t__tmp_v3: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 4 * 16 * 4, 256)] = pl.tensor.slice(x, [1, 4, 16], [r, 0, 0], [], [0])
            t__tmp_v4: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_1", r * 4 * 16 * 4, 256)] = pl.tensor.slice(y, [1, 4, 16], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v3, t__tmp_v4, data, signal, device=r)
# ==== AllocateMemoryAddr
# pypto.program: AllToAll
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class AllToAll:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 256)], y: pl.Out[pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 256)]], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 256)]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 16)]]):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 256)
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        aa_stage: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_4, 0, 64), pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        for dest in pl.range(nranks_idx):
            pld.tile.put(data, dest, x, aa_stage, [my_rank, 0], [dest, 0], [1, 16], atomic=pl.AtomicType.None_)
        for peer in pl.range(nranks_idx):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks_idx):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        for src_1 in pl.range(nranks_idx):
            if src_1 != my_rank:
                pld.system.notify(signal, my_rank, [src_1, 0], pl.const(-1, pl.INT32), op=0)
        data__ssa_v0: pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_5", 0, 256)] = data
        out: pl.Tile[[4, 16], pl.FP32, pl.MemRef(mem_vec_6, 64, 256), pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 256)] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[4, 4, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 1024)], y: pl.Out[pl.Tensor[[4, 4, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)]]):
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 64)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v1 * 4)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v2):
            data: pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 256)] = pld.tensor.window(data_buf, [4, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[4, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 16)] = pld.tensor.window(signal_buf, [4, 1], dtype=pl.INT32)
            t__tmp_v3: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 4 * 16 * 4, 256)] = pl.tensor.slice(x, [1, 4, 16], [r, 0, 0], [], [0])
            t__tmp_v4: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_1", r * 4 * 16 * 4, 256)] = pl.tensor.slice(y, [1, 4, 16], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v3, t__tmp_v4, data, signal, device=r)
# ==== SynthesizeAllReduceSignals: unchanged

# ==== MaterializeCommDomainScopes
# pypto.program: AllToAll
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class AllToAll:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 256)], y: pl.Out[pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 256)]], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 256)]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 16)]]):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 256)
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        aa_stage: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_4, 0, 64), pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        for dest in pl.range(nranks_idx):
            pld.tile.put(data, dest, x, aa_stage, [my_rank, 0], [dest, 0], [1, 16], atomic=pl.AtomicType.None_)
        for peer in pl.range(nranks_idx):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks_idx):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        for src_1 in pl.range(nranks_idx):
            if src_1 != my_rank:
                pld.system.notify(signal, my_rank, [src_1, 0], pl.const(-1, pl.INT32), op=0)
        data__ssa_v0: pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_5", 0, 256)] = data
        out: pl.Tile[[4, 16], pl.FP32, pl.MemRef(mem_vec_6, 64, 256), pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 256)] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[4, 4, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 1024)], y: pl.Out[pl.Tensor[[4, 4, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)]]):
        # pld.comm_domain: devices=all, slots=[data_buf, signal_buf]
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 64)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v1 * 4)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v2):
            data: pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 256)] = pld.tensor.window(data_buf, [4, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[4, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 16)] = pld.tensor.window(signal_buf, [4, 1], dtype=pl.INT32)
            t__tmp_v3: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 4 * 16 * 4, 256)] = pl.tensor.slice(x, [1, 4, 16], [r, 0, 0], [], [0])
            t__tmp_v4: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_1", r * 4 * 16 * 4, 256)] = pl.tensor.slice(y, [1, 4, 16], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v3, t__tmp_v4, data, signal, device=r)
# ==== LowerHostTensorCollectives: unchanged

# ==== MaterializeDistTensorCtx
# pypto.program: AllToAll
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class AllToAll:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 256)], y: pl.Out[pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 256)]], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 256)]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 16)]], data_ctx: pld.CommCtx, signal_ctx: pld.CommCtx):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 256)
        ctx: pld.CommCtx = data_ctx
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        aa_stage: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_4, 0, 64), pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        for dest in pl.range(nranks_idx):
            pld.tile.put(data, dest, x, aa_stage, [my_rank, 0], [dest, 0], [1, 16], atomic=pl.AtomicType.None_)
        for peer in pl.range(nranks_idx):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks_idx):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        for src_1 in pl.range(nranks_idx):
            if src_1 != my_rank:
                pld.system.notify(signal, my_rank, [src_1, 0], pl.const(-1, pl.INT32), op=0)
        data__ssa_v0: pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_5", 0, 256)] = data
        out: pl.Tile[[4, 16], pl.FP32, pl.MemRef(mem_vec_6, 64, 256), pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 256)] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[4, 4, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 1024)], y: pl.Out[pl.Tensor[[4, 4, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)]]):
        # pld.comm_domain: devices=all, slots=[data_buf, signal_buf]
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 64)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v1 * 4)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v2):
            data: pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 256)] = pld.tensor.window(data_buf, [4, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[4, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 16)] = pld.tensor.window(signal_buf, [4, 1], dtype=pl.INT32)
            t__tmp_v3: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 4 * 16 * 4, 256)] = pl.tensor.slice(x, [1, 4, 16], [r, 0, 0], [], [0])
            t__tmp_v4: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_1", r * 4 * 16 * 4, 256)] = pl.tensor.slice(y, [1, 4, 16], [r, 0, 0], [], [0])
            data_ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
            signal_ctx: pld.CommCtx = pld.system.get_comm_ctx(signal)
            self.kernel(t__tmp_v3, t__tmp_v4, data, signal, data_ctx, signal_ctx, device=r)
# ==== InsertCommFence
# pypto.program: AllToAll
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class AllToAll:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 256)], y: pl.Out[pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 256)]], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 256)]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 16)]], data_ctx: pld.CommCtx, signal_ctx: pld.CommCtx):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 256)
        ctx: pld.CommCtx = data_ctx
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        aa_stage: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_4, 0, 64), pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        for dest in pl.range(nranks_idx):
            pld.tile.put(data, dest, x, aa_stage, [my_rank, 0], [dest, 0], [1, 16], atomic=pl.AtomicType.None_)
            pl.system.fence()
        for peer in pl.range(nranks_idx):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks_idx):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
                pl.system.cacheinvalid()
        for src_1 in pl.range(nranks_idx):
            if src_1 != my_rank:
                pld.system.notify(signal, my_rank, [src_1, 0], pl.const(-1, pl.INT32), op=0)
        data__ssa_v0: pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_5", 0, 256)] = data
        out: pl.Tile[[4, 16], pl.FP32, pl.MemRef(mem_vec_6, 64, 256), pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 256)] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[4, 4, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 1024)], y: pl.Out[pl.Tensor[[4, 4, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)]]):
        # pld.comm_domain: devices=all, slots=[data_buf, signal_buf]
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 64)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v1 * 4)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v2):
            data: pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 256)] = pld.tensor.window(data_buf, [4, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[4, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 16)] = pld.tensor.window(signal_buf, [4, 1], dtype=pl.INT32)
            t__tmp_v3: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 4 * 16 * 4, 256)] = pl.tensor.slice(x, [1, 4, 16], [r, 0, 0], [], [0])
            t__tmp_v4: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_1", r * 4 * 16 * 4, 256)] = pl.tensor.slice(y, [1, 4, 16], [r, 0, 0], [], [0])
            data_ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
            signal_ctx: pld.CommCtx = pld.system.get_comm_ctx(signal)
            self.kernel(t__tmp_v3, t__tmp_v4, data, signal, data_ctx, signal_ctx, device=r)
