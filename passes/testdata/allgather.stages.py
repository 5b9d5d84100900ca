# ==== Input
# pypto.program: AllGather
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class AllGather:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 16], pl.FP32], y: pl.Out[pl.Tensor[[2, 16], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[2, 16], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]]):
        data_1: pld.DistributedTensor[[2, 16], pl.FP32] = pld.tensor.allgather(x, data, signal)
        out: pl.Tile[[2, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data_1, [0, 0], [2, 16], [2, 16], target_memory=pl.Mem.Vec)
        y_1: pl.Tensor[[2, 16], pl.FP32] = pl.tile.store(out, [0, 0], y)
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[2, 1, 16], pl.FP32], y: pl.Out[pl.Tensor[[2, 2, 16], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(pld.system.world_size() * 64)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(pld.system.world_size() * 4)
        for r in pl.range(pld.system.world_size()):
            data: pld.DistributedTensor[[2, 16], pl.FP32] = pld.tensor.window(data_buf, [2, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[2, 1], pl.INT32] = pld.tensor.window(signal_buf, [2, 1], dtype=pl.INT32)
            self.kernel(pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0]), pl.tensor.slice(y, [1, 2, 16], [r, 0, 0], [], [0]), data, signal, device=r)
# ==== CtrlFlowTransform: unchanged

# ==== ConvertToSSA
# pypto.program: AllGather
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class AllGather:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 16], pl.FP32], y: pl.Out[pl.Tensor[[2, 16], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[2, 16], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]]):
        data__ssa_v0: pld.DistributedTensor[[2, 16], pl.FP32] = pld.tensor.allgather(x, data, signal)
        out: pl.Tile[[2, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [2, 16], [2, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[2, 16], pl.FP32] = pl.tile.store(out, [0, 0], y)
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[2, 1, 16], pl.FP32], y: pl.Out[pl.Tensor[[2, 2, 16], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(pld.system.world_size() * 64)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(pld.system.world_size() * 4)
        for r in pl.range(pld.system.world_size()):
            data: pld.DistributedTensor[[2, 16], pl.FP32] = pld.tensor.window(data_buf, [2, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[2, 1], pl.INT32] = pld.tensor.window(signal_buf, [2, 1], dtype=pl.INT32)
            self.kernel(pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0]), pl.tensor.slice(y, [1, 2, 16], [r, 0, 0], [], [0]), data, signal, device=r)
# ==== FlattenCallExpr
# pypto.program: AllGather
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class AllGather:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 16], pl.FP32], y: pl.Out[pl.Tensor[[2, 16], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[2, 16], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]]):
        data__ssa_v0: pld.DistributedTensor[[2, 16], pl.FP32] = pld.tensor.allgather(x, data, signal)
        out: pl.Tile[[2, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [2, 16], [2, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[2, 16], pl.FP32] = pl.tile.store(out, [0, 0], y)
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[2, 1, 16], pl.FP32], y: pl.Out[pl.Tensor[[2, 2, 16], pl.FP32]]):
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 64)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v1 * 4)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v2):
            data: pld.DistributedTensor[[2, 16], pl.FP32] = pld.tensor.window(data_buf, [2, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[2, 1], pl.INT32] = pld.tensor.window(signal_buf, [2, 1], dtype=pl.INT32)
            t__tmp_v3: pl.Tensor[[1, 16], pl.FP32] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            t__tmp_v4: pl.Tensor[[2, 16], pl.FP32] = pl.tensor.slice(y, [1, 2, 16], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v3, t__tmp_v4, data, signal, device=r)
# ==== OutlineHierarchyScopes: unchanged

# ==== OutlineIncoreScopes: unchanged

# ==== ConvertTensorToTileOps
# pypto.program: AllGather
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class AllGather:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 16], pl.FP32], y: pl.Out[pl.Tensor[[2, 16], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[2, 16], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]]):
        data__ssa_v0: pld.DistributedTensor[[2, 16], pl.FP32] = pld.tensor.allgather(x, data, signal)
        out: pl.Tile[[2, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [2, 16], [2, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[2, 16], pl.FP32] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[2, 1, 16], pl.FP32], y: pl.Out[pl.Tensor[[2, 2, 16], pl.FP32]]):
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 64)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v1 * 4)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v2):
            data: pld.DistributedTensor[[2, 16], pl.FP32] = pld.tensor.window(data_buf, [2, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[2, 1], pl.INT32] = pld.tensor.window(signal_buf, [2, 1], dtype=pl.INT32)
            t__tmp_v3: pl.Tensor[[1, 16], pl.FP32] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            t__tmp_v4: pl.Tensor[[2, 16], pl.FP32] = pl.tensor.slice(y, [1, 2, 16], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v3, t__tmp_v4, data, signal, device=r)
# ==== LowerCompositeOps
# pypto.program: AllGather
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class AllGather:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 16], pl.FP32], y: pl.Out[pl.Tensor[[2, 16], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[2, 16], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]]):
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        ag_stage: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        for peer in pl.range(nranks_idx):
            pld.tile.put(data, peer, x, ag_stage, [my_rank, 0], [0, 0], [1, 16], atomic=pl.AtomicType.None_)
        for peer_1 in pl.range(nranks_idx):
            if peer_1 != my_rank:
                pld.system.notify(signal, peer_1, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks_idx):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        for src_1 in pl.range(nranks_idx):
            if src_1 != my_rank:
                pld.system.notify(signal, my_rank, [src_1, 0], pl.const(-1, pl.INT32), op=0)
        data__ssa_v0: pld.DistributedTensor[[2, 16], pl.FP32] = data
        out: pl.Tile[[2, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [2, 16], [2, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[2, 16], pl.FP32] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[2, 1, 16], pl.FP32], y: pl.Out[pl.Tensor[[2, 2, 16], pl.FP32]]):
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 64)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v1 * 4)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v2):
            data: pld.DistributedTensor[[2, 16], pl.FP32] = pld.tensor.window(data_buf, [2, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[2, 1], pl.INT32] = pld.tensor.window(signal_buf, [2, 1], dtype=pl.INT32)
            t__tmp_v3: pl.Tensor[[1, 16], pl.FP32] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            t__tmp_v4: pl.Tensor[[2, 16], pl.FP32] = pl.tensor.slice(y, [1, 2, 16], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v3, t__tmp_v4, data, signal, device=r)
# ==== FlattenTileNdTo2D: unchanged

# ==== InferTileMemorySpace: unchanged

# ==== InitMemRef
# pypto.program: AllGather
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class AllGather:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], y: pl.Out[pl.Tensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 128)]], data: pl.InOut[pld.DistributedTensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 128)]], signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 8)]]):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 128)
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        ag_stage: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_4, 0, 64), pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        for peer in pl.range(nranks_idx):
            pld.tile.put(data, peer, x, ag_stage, [my_rank, 0], [0, 0], [1, 16], atomic=pl.AtomicType.None_)
        for peer_1 in pl.range(nranks_idx):
            if peer_1 != my_rank:
                pld.system.notify(signal, peer_1, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks_idx):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        for src_1 in pl.range(nranks_idx):
            if src_1 != my_rank:
                pld.system.notify(signal, my_rank, [src_1, 0], pl.const(-1, pl.INT32), op=0)
        data__ssa_v0: pld.DistributedTensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_5", 0, 128)] = data
        out: pl.Tile[[2, 16], pl.FP32, pl.MemRef(mem_vec_6, 0, 128), pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [2, 16], [2, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 128)] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[2, 1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 128)], y: pl.Out[pl.Tensor[[2, 2, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 256)]]):
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 64)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v1 * 4)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v2):
            data: pld.DistributedTensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 128)] = pld.tensor.window(data_buf, [2, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[2, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 8)] = pld.tensor.window(signal_buf, [2, 1], dtype=pl.INT32)
            t__tmp_v3: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 16 * 4, 64)] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            t__tmp_v4: pl.Tensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_1", r * 2 * 16 * 4, 128)] = pl.tensor.slice(y, [1, 2, 16], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v3, t__tmp_v4, data, signal, device=r)
# ==== AllocateMemoryAddr
# pypto.program: AllGather
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class AllGather:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], y: pl.Out[pl.Tensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 128)]], data: pl.InOut[pld.DistributedTensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 128)]], signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 8)]]):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 128)
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        ag_stage: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_4, 0, 64), pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        for peer in pl.range(nranks_idx):
            pld.tile.put(data, peer, x, ag_stage, [my_rank, 0], [0, 0], [1, 16], atomic=pl.AtomicType.None_)
        for peer_1 in pl.range(nranks_idx):
            if peer_1 != my_rank:
                pld.system.notify(signal, peer_1, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks_idx):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        for src_1 in pl.range(nranks_idx):
            if src_1 != my_rank:
                pld.system.notify(signal, my_rank, [src_1, 0], pl.const(-1, pl.INT32), op=0)
        data__ssa_v0: pld.DistributedTensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_5", 0, 128)] = data
        out: pl.Tile[[2, 16], pl.FP32, pl.MemRef(mem_vec_6, 64, 128), pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [2, 16], [2, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 128)] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[2, 1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 128)], y: pl.Out[pl.Tensor[[2, 2, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 256)]]):
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 64)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v1 * 4)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v2):
            data: pld.DistributedTensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 128)] = pld.tensor.window(data_buf, [2, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[2, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 8)] = pld.tensor.window(signal_buf, [2, 1], dtype=pl.INT32)
            t__tmp_v3: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 16 * 4, 64)] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            t__tmp_v4: pl.Tensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_1", r * 2 * 16 * 4, 128)] = pl.tensor.slice(y, [1, 2, 16], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v3, t__tmp_v4, data, signal, device=r)
# ==== SynthesizeAllReduceSignals: unchanged

# ==== MaterializeCommDomainScopes
# pypto.program: AllGather
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class AllGather:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], y: pl.Out[pl.Tensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 128)]], data: pl.InOut[pld.DistributedTensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 128)]], signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 8)]]):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 128)
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        ag_stage: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_4, 0, 64), pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        for peer in pl.range(nranks_idx):
            pld.tile.put(data, peer, x, ag_stage, [my_rank, 0], [0, 0], [1, 16], atomic=pl.AtomicType.None_)
        for peer_1 in pl.range(nranks_idx):
            if peer_1 != my_rank:
                pld.system.notify(signal, peer_1, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks_idx):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        for src_1 in pl.range(nranks_idx):
            if src_1 != my_rank:
                pld.system.notify(signal, my_rank, [src_1, 0], pl.const(-1, pl.INT32), op=0)
        data__ssa_v0: pld.DistributedTensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_5", 0, 128)] = data
        out: pl.Tile[[2, 16], pl.FP32, pl.MemRef(mem_vec_6, 64, 128), pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [2, 16], [2, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 128)] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[2, 1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 128)], y: pl.Out[pl.Tensor[[2, 2, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 256)]]):
        # pld.comm_domain: devices=all, slots=[data_buf, signal_buf]
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 64)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v1 * 4)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v2):
            data: pld.DistributedTensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 128)] = pld.tensor.window(data_buf, [2, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[2, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 8)] = pld.tensor.window(signal_buf, [2, 1], dtype=pl.INT32)
            t__tmp_v3: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 16 * 4, 64)] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            t__tmp_v4: pl.Tensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_1", r * 2 * 16 * 4, 128)] = pl.tensor.slice(y, [1, 2, 16], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v3, t__tmp_v4, data, signal, device=r)
# ==== LowerHostTensorCollectives: unchanged

# ==== MaterializeDistTensorCtx
# pypto.program: AllGather
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class AllGather:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], y: pl.Out[pl.Tensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 128)]], data: pl.InOut[pld.DistributedTensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 128)]], signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 8)]], data_ctx: pld.CommCtx, signal_ctx: pld.CommCtx):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 128)
        ctx: pld.CommCtx = data_ctx
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        ag_stage: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_4, 0, 64), pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        for peer in pl.range(nranks_idx):
            pld.tile.put(data, peer, x, ag_stage, [my_rank, 0], [0, 0], [1, 16], atomic=pl.AtomicType.None_)
        for peer_1 in pl.range(nranks_idx):
            if peer_1 != my_rank:
                pld.system.notify(signal, peer_1, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks_idx):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        for src_1 in pl.range(nranks_idx):
            if src_1 != my_rank:
                pld.system.notify(signal, my_rank, [src_1, 0], pl.const(-1, pl.INT32), op=0)
        data__ssa_v0: pld.DistributedTensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_5", 0, 128)] = data
        out: pl.Tile[[2, 16], pl.FP32, pl.MemRef(mem_vec_6, 64, 128), pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [2, 16], [2, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 128)] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[2, 1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 128)], y: pl.Out[pl.Tensor[[2, 2, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 256)]]):
        # pld.comm_domain: devices=all, slots=[data_buf, signal_buf]
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 64)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v1 * 4)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v2):
            data: pld.DistributedTensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 128)] = pld.tensor.window(data_buf, [2, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[2, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 8)] = pld.tensor.window(signal_buf, [2, 1], dtype=pl.INT32)
            t__tmp_v3: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 16 * 4, 64)] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            t__tmp_v4: pl.Tensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_1", r * 2 * 16 * 4, 128)] = pl.tensor.slice(y, [1, 2, 16], [r, 0, 0], [], [0])
            data_ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
            signal_ctx: pld.CommCtx = pld.system.get_comm_ctx(signal)
            self.kernel(t__tmp_v3, t__tmp_v4, data, signal, data_ctx, signal_ctx, device=r)
# ==== InsertCommFence
# pypto.program: AllGather
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class AllGather:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], y: pl.Out[pl.Tensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 128)]], data: pl.InOut[pld.DistributedTensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 128)]], signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 8)]], data_ctx: pld.CommCtx, signal_ctx: pld.CommCtx):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 128)
        ctx: pld.CommCtx = data_ctx
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        ag_stage: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_4, 0, 64), pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        for peer in pl.range(nranks_idx):
            pld.tile.put(data, peer, x, ag_stage, [my_rank, 0], [0, 0], [1, 16], atomic=pl.AtomicType.None_)
            pl.system.fence()
        for peer_1 in pl.range(nranks_idx):
            if peer_1 != my_rank:
                pld.system.notify(signal, peer_1, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks_idx):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
                pl.system.cacheinvalid()
        for src_1 in pl.range(nranks_idx):
            if src_1 != my_rank:
                pld.system.notify(signal, my_rank, [src_1, 0], pl.const(-1, pl.INT32), op=0)
        data__ssa_v0: pld.DistributedTensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_5", 0, 128)] = data
        out: pl.Tile[[2, 16], pl.FP32, pl.MemRef(mem_vec_6, 64, 128), pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [2, 16], [2, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 128)] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[2, 1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 128)], y: pl.Out[pl.Tensor[[2, 2, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 256)]]):
        # pld.comm_domain: devices=all, slots=[data_buf, signal_buf]
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 64)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v1 * 4)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v2):
            data: pld.DistributedTensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 128)] = pld.tensor.window(data_buf, [2, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[2, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 8)] = pld.tensor.window(signal_buf, [2, 1], dtype=pl.INT32)
            t__tmp_v3: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 16 * 4, 64)] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            t__tmp_v4: pl.Tensor[[2, 16], pl.FP32, pl.MemRef("mem_ddr_1", r * 2 * 16 * 4, 128)] = pl.tensor.slice(y, [1, 2, 16], [r, 0, 0], [], [0])
            data_ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
            signal_ctx: pld.CommCtx = pld.system.get_comm_ctx(signal)
            self.kernel(t__tmp_v3, t__tmp_v4, data, signal, data_ctx, signal_ctx, device=r)
