# ==== Input
# pypto.program: ReduceScatter
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class ReduceScatter:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 16], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]):
        staged: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        data_1: pld.DistributedTensor[[4, 16], pl.FP32] = pl.tile.store(staged, [0, 0], data)
        data_2: pld.DistributedTensor[[4, 16], pl.FP32] = pld.tensor.reduce_scatter(data_1, signal, op=0)
        out: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data_2, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
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
# pypto.program: ReduceScatter
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class ReduceScatter:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 16], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]):
        staged: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[4, 16], pl.FP32] = pl.tile.store(staged, [0, 0], data)
        data__ssa_v1: pld.DistributedTensor[[4, 16], pl.FP32] = pld.tensor.reduce_scatter(data__ssa_v0, signal, op=0)
        out: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
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
# pypto.program: ReduceScatter
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class ReduceScatter:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 16], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]):
        staged: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[4, 16], pl.FP32] = pl.tile.store(staged, [0, 0], data)
        data__ssa_v1: pld.DistributedTensor[[4, 16], pl.FP32] = pld.tensor.reduce_scatter(data__ssa_v0, signal, op=0)
        out: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
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
# pypto.program: ReduceScatter
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class ReduceScatter:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 16], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]):
        staged: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[4, 16], pl.FP32] = pl.tile.store(staged, [0, 0], data)
        data__ssa_v1: pld.DistributedTensor[[4, 16], pl.FP32] = pld.tensor.reduce_scatter(data__ssa_v0, signal, op=0)
        out: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
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
# pypto.program: ReduceScatter
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class ReduceScatter:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 16], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]):
        staged: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[4, 16], pl.FP32] = pl.tile.store(staged, [0, 0], data)
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data__ssa_v0)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        for peer in pl.range(nranks_idx):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks_idx):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        acc: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [my_rank, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        for peer_1, (acc_iter,) in pl.range(nranks_idx, init_values=(acc,)):
            if peer_1 != my_rank:
                recv: pl.Tile[[1, 16], pl.FP32] = pld.tile.remote_load(data__ssa_v0, peer_1, [my_rank, 0], [1, 16])
                acc_sum: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc_iter, recv)
                acc_next: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.yield_(acc_sum)
            else:
                acc_next: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.yield_(acc_iter)
            acc_rv: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.yield_(acc_next)
        for peer_2 in pl.range(nranks_idx):
            if peer_2 != my_rank:
                pld.system.notify(signal, peer_2, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src_1 in pl.range(nranks_idx):
            if src_1 != my_rank:
                pld.system.wait(signal, [src_1, 0], pl.const(2, pl.INT32), cmp=1)
        pl.tile.store(acc_rv, [my_rank, 0], data__ssa_v0)
        for src_2 in pl.range(nranks_idx):
            if src_2 != my_rank:
                pld.system.notify(signal, my_rank, [src_2, 0], pl.const(-2, pl.INT32), op=0)
        data__ssa_v1: pld.DistributedTensor[[4, 16], pl.FP32] = data__ssa_v0
        out: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
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

# ==== InferTileMemorySpace
# pypto.program: ReduceScatter
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class ReduceScatter:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 16], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]):
        staged: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[4, 16], pl.FP32] = pl.tile.store(staged, [0, 0], data)
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data__ssa_v0)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        for peer in pl.range(nranks_idx):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks_idx):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        acc: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [my_rank, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        for peer_1, (acc_iter,) in pl.range(nranks_idx, init_values=(acc,)):
            if peer_1 != my_rank:
                recv: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pld.tile.remote_load(data__ssa_v0, peer_1, [my_rank, 0], [1, 16])
                acc_sum: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc_iter, recv)
                acc_next: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.yield_(acc_sum)
            else:
                acc_next: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.yield_(acc_iter)
            acc_rv: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.yield_(acc_next)
        for peer_2 in pl.range(nranks_idx):
            if peer_2 != my_rank:
                pld.system.notify(signal, peer_2, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src_1 in pl.range(nranks_idx):
            if src_1 != my_rank:
                pld.system.wait(signal, [src_1, 0], pl.const(2, pl.INT32), cmp=1)
        pl.tile.store(acc_rv, [my_rank, 0], data__ssa_v0)
        for src_2 in pl.range(nranks_idx):
            if src_2 != my_rank:
                pld.system.notify(signal, my_rank, [src_2, 0], pl.const(-2, pl.INT32), op=0)
        data__ssa_v1: pld.DistributedTensor[[4, 16], pl.FP32] = data__ssa_v0
        out: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
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
# ==== InitMemRef
# pypto.program: ReduceScatter
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class ReduceScatter:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 256)], y: pl.Out[pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 256)]], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 256)]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 16)]]):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 256)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_11: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 256)
        staged: pl.Tile[[4, 16], pl.FP32, pl.MemRef(mem_vec_4, 0, 256), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 256)] = pl.tile.store(staged, [0, 0], data)
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data__ssa_v0)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        for peer in pl.range(nranks_idx):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks_idx):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        acc: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_5, 0, 64), pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [my_rank, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        for peer_1, (acc_iter,) in pl.range(nranks_idx, init_values=(acc,)):
            if peer_1 != my_rank:
                recv: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_6, 0, 64), pl.Mem.Vec] = pld.tile.remote_load(data__ssa_v0, peer_1, [my_rank, 0], [1, 16])
                acc_sum: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_7, 0, 64), pl.Mem.Vec] = pl.tile.add(acc_iter, recv)
                acc_next: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_7, 0, 64), pl.Mem.Vec] = pl.yield_(acc_sum)
            else:
                acc_next: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_7, 0, 64), pl.Mem.Vec] = pl.yield_(acc_iter)
            acc_rv: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_5, 0, 64), pl.Mem.Vec] = pl.yield_(acc_next)
        for peer_2 in pl.range(nranks_idx):
            if peer_2 != my_rank:
                pld.system.notify(signal, peer_2, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src_1 in pl.range(nranks_idx):
            if src_1 != my_rank:
                pld.system.wait(signal, [src_1, 0], pl.const(2, pl.INT32), cmp=1)
        pl.tile.store(acc_rv, [my_rank, 0], data__ssa_v0)
        for src_2 in pl.range(nranks_idx):
            if src_2 != my_rank:
                pld.system.notify(signal, my_rank, [src_2, 0], pl.const(-2, pl.INT32), op=0)
        data__ssa_v1: pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_10", 0, 256)] = data__ssa_v0
        out: pl.Tile[[4, 16], pl.FP32, pl.MemRef(mem_vec_11, 0, 256), pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
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
# pypto.program: ReduceScatter
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class ReduceScatter:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 256)], y: pl.Out[pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 256)]], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 256)]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 16)]]):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 256)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_11: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 256)
        staged: pl.Tile[[4, 16], pl.FP32, pl.MemRef(mem_vec_4, 256, 256), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 256)] = pl.tile.store(staged, [0, 0], data)
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data__ssa_v0)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        for peer in pl.range(nranks_idx):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks_idx):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        acc: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_5, 512, 64), pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [my_rank, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        for peer_1, (acc_iter,) in pl.range(nranks_idx, init_values=(acc,)):
            if peer_1 != my_rank:
                recv: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_6, 576, 64), pl.Mem.Vec] = pld.tile.remote_load(data__ssa_v0, peer_1, [my_rank, 0], [1, 16])
                acc_sum: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_7, 640, 64), pl.Mem.Vec] = pl.tile.add(acc_iter, recv)
                acc_next: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_7, 640, 64), pl.Mem.Vec] = pl.yield_(acc_sum)
            else:
                acc_next: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_7, 640, 64), pl.Mem.Vec] = pl.yield_(acc_iter)
            acc_rv: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_5, 512, 64), pl.Mem.Vec] = pl.yield_(acc_next)
        for peer_2 in pl.range(nranks_idx):
            if peer_2 != my_rank:
                pld.system.notify(signal, peer_2, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src_1 in pl.range(nranks_idx):
            if src_1 != my_rank:
                pld.system.wait(signal, [src_1, 0], pl.const(2, pl.INT32), cmp=1)
        pl.tile.store(acc_rv, [my_rank, 0], data__ssa_v0)
        for src_2 in pl.range(nranks_idx):
            if src_2 != my_rank:
                pld.system.notify(signal, my_rank, [src_2, 0], pl.const(-2, pl.INT32), op=0)
        data__ssa_v1: pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_10", 0, 256)] = data__ssa_v0
        out: pl.Tile[[4, 16], pl.FP32, pl.MemRef(mem_vec_11, 0, 256), pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
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
# pypto.program: ReduceScatter
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class ReduceScatter:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 256)], y: pl.Out[pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 256)]], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 256)]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 16)]]):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 256)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_11: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 256)
        staged: pl.Tile[[4, 16], pl.FP32, pl.MemRef(mem_vec_4, 256, 256), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 256)] = pl.tile.store(staged, [0, 0], data)
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data__ssa_v0)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        for peer in pl.range(nranks_idx):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks_idx):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        acc: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_5, 512, 64), pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [my_rank, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        for peer_1, (acc_iter,) in pl.range(nranks_idx, init_values=(acc,)):
            if peer_1 != my_rank:
                recv: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_6, 576, 64), pl.Mem.Vec] = pld.tile.remote_load(data__ssa_v0, peer_1, [my_rank, 0], [1, 16])
                acc_sum: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_7, 640, 64), pl.Mem.Vec] = pl.tile.add(acc_iter, recv)
                acc_next: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_7, 640, 64), pl.Mem.Vec] = pl.yield_(acc_sum)
            else:
                acc_next: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_7, 640, 64), pl.Mem.Vec] = pl.yield_(acc_iter)
            acc_rv: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_5, 512, 64), pl.Mem.Vec] = pl.yield_(acc_next)
        for peer_2 in pl.range(nranks_idx):
            if peer_2 != my_rank:
                pld.system.notify(signal, peer_2, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src_1 in pl.range(nranks_idx):
            if src_1 != my_rank:
                pld.system.wait(signal, [src_1, 0], pl.const(2, pl.INT32), cmp=1)
        pl.tile.store(acc_rv, [my_rank, 0], data__ssa_v0)
        for src_2 in pl.range(nranks_idx):
            if src_2 != my_rank:
                pld.system.notify(signal, my_rank, [src_2, 0], pl.const(-2, pl.INT32), op=0)
        data__ssa_v1: pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_10", 0, 256)] = data__ssa_v0
        out: pl.Tile[[4, 16], pl.FP32, pl.MemRef(mem_vec_11, 0, 256), pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
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
# pypto.program: ReduceScatter
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class ReduceScatter:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 256)], y: pl.Out[pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 256)]], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 256)]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 16)]], data_ctx: pld.CommCtx, signal_ctx: pld.CommCtx):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 256)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_11: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 256)
        staged: pl.Tile[[4, 16], pl.FP32, pl.MemRef(mem_vec_4, 256, 256), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 256)] = pl.tile.store(staged, [0, 0], data)
        ctx: pld.CommCtx = data_ctx
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        for peer in pl.range(nranks_idx):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks_idx):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        acc: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_5, 512, 64), pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [my_rank, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        for peer_1, (acc_iter,) in pl.range(nranks_idx, init_values=(acc,)):
            if peer_1 != my_rank:
                recv: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_6, 576, 64), pl.Mem.Vec] = pld.tile.remote_load(data__ssa_v0, peer_1, [my_rank, 0], [1, 16])
                acc_sum: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_7, 640, 64), pl.Mem.Vec] = pl.tile.add(acc_iter, recv)
                acc_next: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_7, 640, 64), pl.Mem.Vec] = pl.yield_(acc_sum)
            else:
                acc_next: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_7, 640, 64), pl.Mem.Vec] = pl.yield_(acc_iter)
            acc_rv: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_5, 512, 64), pl.Mem.Vec] = pl.yield_(acc_next)
        for peer_2 in pl.range(nranks_idx):
            if peer_2 != my_rank:
                pld.system.notify(signal, peer_2, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src_1 in pl.range(nranks_idx):
            if src_1 != my_rank:
                pld.system.wait(signal, [src_1, 0], pl.const(2, pl.INT32), cmp=1)
        pl.tile.store(acc_rv, [my_rank, 0], data__ssa_v0)
        for src_2 in pl.range(nranks_idx):
            if src_2 != my_rank:
                pld.system.notify(signal, my_rank, [src_2, 0], pl.const(-2, pl.INT32), op=0)
        data__ssa_v1: pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_10", 0, 256)] = data__ssa_v0
        out: pl.Tile[[4, 16], pl.FP32, pl.MemRef(mem_vec_11, 0, 256), pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
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
# pypto.program: ReduceScatter
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class ReduceScatter:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 256)], y: pl.Out[pl.Tensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 256)]], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 256)]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 16)]], data_ctx: pld.CommCtx, signal_ctx: pld.CommCtx):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 256)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_11: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 256)
        staged: pl.Tile[[4, 16], pl.FP32, pl.MemRef(mem_vec_4, 256, 256), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 256)] = pl.tile.store(staged, [0, 0], data)
        pl.system.cacheinvalid(data, [4, 16], [0, 0])
        pl.system.fence()
        ctx: pld.CommCtx = data_ctx
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        for peer in pl.range(nranks_idx):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks_idx):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
                pl.system.cacheinvalid()
        acc: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_5, 512, 64), pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [my_rank, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        for peer_1, (acc_iter,) in pl.range(nranks_idx, init_values=(acc,)):
            if peer_1 != my_rank:
                recv: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_6, 576, 64), pl.Mem.Vec] = pld.tile.remote_load(data__ssa_v0, peer_1, [my_rank, 0], [1, 16])
                acc_sum: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_7, 640, 64), pl.Mem.Vec] = pl.tile.add(acc_iter, recv)
                acc_next: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_7, 640, 64), pl.Mem.Vec] = pl.yield_(acc_sum)
            else:
                acc_next: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_7, 640, 64), pl.Mem.Vec] = pl.yield_(acc_iter)
            acc_rv: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_5, 512, 64), pl.Mem.Vec] = pl.yield_(acc_next)
        for peer_2 in pl.range(nranks_idx):
            if peer_2 != my_rank:
                pld.system.notify(signal, peer_2, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src_1 in pl.range(nranks_idx):
            if src_1 != my_rank:
                pld.system.wait(signal, [src_1, 0], pl.const(2, pl.INT32), cmp=1)
                pl.system.cacheinvalid()
        pl.tile.store(acc_rv, [my_rank, 0], data__ssa_v0)
        pl.system.cacheinvalid(data__ssa_v0, [4, 16], [0, 0])
        pl.system.fence()
        for src_2 in pl.range(nranks_idx):
            if src_2 != my_rank:
                pld.system.notify(signal, my_rank, [src_2, 0], pl.const(-2, pl.INT32), op=0)
        data__ssa_v1: pld.DistributedTensor[[4, 16], pl.FP32, pl.MemRef("mem_ddr_10", 0, 256)] = data__ssa_v0
        out: pl.Tile[[4, 16], pl.FP32, pl.MemRef(mem_vec_11, 0, 256), pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
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
