# ==== Input
# pypto.program: MeshAllReduce
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class MeshAllReduce:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 10000], pl.FP32], y: pl.Out[pl.Tensor[[1, 10000], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 10000], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[3, 1], pl.INT32]]):
        staged: pl.Tile[[1, 10000], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        data_1: pld.DistributedTensor[[1, 10000], pl.FP32] = pl.tile.store(staged, [0, 0], data)
        data_2: pld.DistributedTensor[[1, 10000], pl.FP32] = pld.tensor.allreduce(data_1, signal, op=0, mode='mesh', core_num=1)
        out: pl.Tile[[1, 10000], pl.FP32, pl.Mem.Vec] = pl.tile.load(data_2, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        y_1: pl.Tensor[[1, 10000], pl.FP32] = pl.tile.store(out, [0, 0], y)
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[3, 1, 10000], pl.FP32], y: pl.Out[pl.Tensor[[3, 1, 10000], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(40000)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(12)
        for r in pl.range(pld.system.world_size()):
            data: pld.DistributedTensor[[1, 10000], pl.FP32] = pld.tensor.window(data_buf, [1, 10000], dtype=pl.FP32)
            signal: pld.DistributedTensor[[3, 1], pl.INT32] = pld.tensor.window(signal_buf, [3, 1], dtype=pl.INT32)
            self.kernel(pl.tensor.slice(x, [1, 1, 10000], [r, 0, 0], [], [0]), pl.tensor.slice(y, [1, 1, 10000], [r, 0, 0], [], [0]), data, signal, device=r)
# ==== CtrlFlowTransform: unchanged

# ==== ConvertToSSA
# pypto.program: MeshAllReduce
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class MeshAllReduce:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 10000], pl.FP32], y: pl.Out[pl.Tensor[[1, 10000], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 10000], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[3, 1], pl.INT32]]):
        staged: pl.Tile[[1, 10000], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 10000], pl.FP32] = pl.tile.store(staged, [0, 0], data)
        data__ssa_v1: pld.DistributedTensor[[1, 10000], pl.FP32] = pld.tensor.allreduce(data__ssa_v0, signal, op=0, mode='mesh', core_num=1)
        out: pl.Tile[[1, 10000], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 10000], pl.FP32] = pl.tile.store(out, [0, 0], y)
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[3, 1, 10000], pl.FP32], y: pl.Out[pl.Tensor[[3, 1, 10000], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(40000)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(12)
        for r in pl.range(pld.system.world_size()):
            data: pld.DistributedTensor[[1, 10000], pl.FP32] = pld.tensor.window(data_buf, [1, 10000], dtype=pl.FP32)
            signal: pld.DistributedTensor[[3, 1], pl.INT32] = pld.tensor.window(signal_buf, [3, 1], dtype=pl.INT32)
            self.kernel(pl.tensor.slice(x, [1, 1, 10000], [r, 0, 0], [], [0]), pl.tensor.slice(y, [1, 1, 10000], [r, 0, 0], [], [0]), data, signal, device=r)
# ==== FlattenCallExpr
# pypto.program: MeshAllReduce
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class MeshAllReduce:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 10000], pl.FP32], y: pl.Out[pl.Tensor[[1, 10000], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 10000], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[3, 1], pl.INT32]]):
        staged: pl.Tile[[1, 10000], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 10000], pl.FP32] = pl.tile.store(staged, [0, 0], data)
        data__ssa_v1: pld.DistributedTensor[[1, 10000], pl.FP32] = pld.tensor.allreduce(data__ssa_v0, signal, op=0, mode='mesh', core_num=1)
        out: pl.Tile[[1, 10000], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 10000], pl.FP32] = pl.tile.store(out, [0, 0], y)
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[3, 1, 10000], pl.FP32], y: pl.Out[pl.Tensor[[3, 1, 10000], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(40000)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(12)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            data: pld.DistributedTensor[[1, 10000], pl.FP32] = pld.tensor.window(data_buf, [1, 10000], dtype=pl.FP32)
            signal: pld.DistributedTensor[[3, 1], pl.INT32] = pld.tensor.window(signal_buf, [3, 1], dtype=pl.INT32)
            t__tmp_v1: pl.Tensor[[1, 10000], pl.FP32] = pl.tensor.slice(x, [1, 1, 10000], [r, 0, 0], [], [0])
            t__tmp_v2: pl.Tensor[[1, 10000], pl.FP32] = pl.tensor.slice(y, [1, 1, 10000], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v1, t__tmp_v2, data, signal, device=r)
# ==== OutlineHierarchyScopes: unchanged

# ==== OutlineIncoreScopes: unchanged

# ==== ConvertTensorToTileOps
# pypto.program: MeshAllReduce
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class MeshAllReduce:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 10000], pl.FP32], y: pl.Out[pl.Tensor[[1, 10000], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 10000], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[3, 1], pl.INT32]]):
        staged: pl.Tile[[1, 10000], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 10000], pl.FP32] = pl.tile.store(staged, [0, 0], data)
        data__ssa_v1: pld.DistributedTensor[[1, 10000], pl.FP32] = pld.tensor.allreduce(data__ssa_v0, signal, op=0, mode='mesh', core_num=1)
        out: pl.Tile[[1, 10000], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 10000], pl.FP32] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[3, 1, 10000], pl.FP32], y: pl.Out[pl.Tensor[[3, 1, 10000], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(40000)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(12)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            data: pld.DistributedTensor[[1, 10000], pl.FP32] = pld.tensor.window(data_buf, [1, 10000], dtype=pl.FP32)
            signal: pld.DistributedTensor[[3, 1], pl.INT32] = pld.tensor.window(signal_buf, [3, 1], dtype=pl.INT32)
            t__tmp_v1: pl.Tensor[[1, 10000], pl.FP32] = pl.tensor.slice(x, [1, 1, 10000], [r, 0, 0], [], [0])
            t__tmp_v2: pl.Tensor[[1, 10000], pl.FP32] = pl.tensor.slice(y, [1, 1, 10000], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v1, t__tmp_v2, data, signal, device=r)
# ==== LowerCompositeOps
# pypto.program: MeshAllReduce
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class MeshAllReduce:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 10000], pl.FP32], y: pl.Out[pl.Tensor[[1, 10000], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 10000], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[3, 1], pl.INT32]]):
        staged: pl.Tile[[1, 10000], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 10000], pl.FP32] = pl.tile.store(staged, [0, 0], data)
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
        for col in pl.range(0, 10000, 4096):
            v: pl.Scalar[pl.INDEX] = pl.min(4096, 10000 - col)
            chunk: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.load(data__ssa_v0, [0, col], [1, 4096], [1, v], target_memory=pl.Mem.Vec)
            acc: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.fillpad_inplace(chunk, pad_value=pl.PadValue.zero)
            for peer_1, (acc_iter,) in pl.range(nranks_idx, init_values=(acc,)):
                if peer_1 != my_rank:
                    recv: pl.Tile[[1, 4096], pl.FP32, pl.TileView(valid_shape=[1, v])] = pld.tile.remote_load(data__ssa_v0, peer_1, [0, col], [1, 4096], [1, v])
                    recv_pad: pl.Tile[[1, 4096], pl.FP32, pl.TileView(valid_shape=[1, v])] = pl.tile.fillpad_inplace(recv, pad_value=pl.PadValue.zero)
                    acc_sum: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.add(acc_iter, recv_pad)
                    acc_next: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.yield_(acc_sum)
                else:
                    acc_next: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.yield_(acc_iter)
                acc_rv: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.yield_(acc_next)
            for peer_2 in pl.range(nranks_idx):
                if peer_2 != my_rank:
                    pld.system.notify(signal, peer_2, [my_rank, 0], pl.const(1, pl.INT32), op=0)
            for src_1 in pl.range(nranks_idx):
                if src_1 != my_rank:
                    pld.system.wait(signal, [src_1, 0], pl.cast(col // 4096 + 2, pl.INT32), cmp=1)
            acc_valid: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.set_validshape(acc_rv, 1, v)
            pl.tile.store(acc_valid, [0, col], data__ssa_v0)
        for src_2 in pl.range(nranks_idx):
            if src_2 != my_rank:
                pld.system.notify(signal, my_rank, [src_2, 0], pl.const(-4, pl.INT32), op=0)
        data__ssa_v1: pld.DistributedTensor[[1, 10000], pl.FP32] = data__ssa_v0
        out: pl.Tile[[1, 10000], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 10000], pl.FP32] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[3, 1, 10000], pl.FP32], y: pl.Out[pl.Tensor[[3, 1, 10000], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(40000)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(12)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            data: pld.DistributedTensor[[1, 10000], pl.FP32] = pld.tensor.window(data_buf, [1, 10000], dtype=pl.FP32)
            signal: pld.DistributedTensor[[3, 1], pl.INT32] = pld.tensor.window(signal_buf, [3, 1], dtype=pl.INT32)
            t__tmp_v1: pl.Tensor[[1, 10000], pl.FP32] = pl.tensor.slice(x, [1, 1, 10000], [r, 0, 0], [], [0])
            t__tmp_v2: pl.Tensor[[1, 10000], pl.FP32] = pl.tensor.slice(y, [1, 1, 10000], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v1, t__tmp_v2, data, signal, device=r)
# ==== FlattenTileNdTo2D: unchanged

# ==== InferTileMemorySpace
# pypto.program: MeshAllReduce
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class MeshAllReduce:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 10000], pl.FP32], y: pl.Out[pl.Tensor[[1, 10000], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 10000], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[3, 1], pl.INT32]]):
        staged: pl.Tile[[1, 10000], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 10000], pl.FP32] = pl.tile.store(staged, [0, 0], data)
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
        for col in pl.range(0, 10000, 4096):
            v: pl.Scalar[pl.INDEX] = pl.min(4096, 10000 - col)
            chunk: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.load(data__ssa_v0, [0, col], [1, 4096], [1, v], target_memory=pl.Mem.Vec)
            acc: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.fillpad_inplace(chunk, pad_value=pl.PadValue.zero)
            for peer_1, (acc_iter,) in pl.range(nranks_idx, init_values=(acc,)):
                if peer_1 != my_rank:
                    recv: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pld.tile.remote_load(data__ssa_v0, peer_1, [0, col], [1, 4096], [1, v])
                    recv_pad: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.fillpad_inplace(recv, pad_value=pl.PadValue.zero)
                    acc_sum: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.add(acc_iter, recv_pad)
                    acc_next: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.yield_(acc_sum)
                else:
                    acc_next: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.yield_(acc_iter)
                acc_rv: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.yield_(acc_next)
            for peer_2 in pl.range(nranks_idx):
                if peer_2 != my_rank:
                    pld.system.notify(signal, peer_2, [my_rank, 0], pl.const(1, pl.INT32), op=0)
            for src_1 in pl.range(nranks_idx):
                if src_1 != my_rank:
                    pld.system.wait(signal, [src_1, 0], pl.cast(col // 4096 + 2, pl.INT32), cmp=1)
            acc_valid: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.set_validshape(acc_rv, 1, v)
            pl.tile.store(acc_valid, [0, col], data__ssa_v0)
        for src_2 in pl.range(nranks_idx):
            if src_2 != my_rank:
                pld.system.notify(signal, my_rank, [src_2, 0], pl.const(-4, pl.INT32), op=0)
        data__ssa_v1: pld.DistributedTensor[[1, 10000], pl.FP32] = data__ssa_v0
        out: pl.Tile[[1, 10000], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 10000], pl.FP32] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[3, 1, 10000], pl.FP32], y: pl.Out[pl.Tensor[[3, 1, 10000], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(40000)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(12)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            data: pld.DistributedTensor[[1, 10000], pl.FP32] = pld.tensor.window(data_buf, [1, 10000], dtype=pl.FP32)
            signal: pld.DistributedTensor[[3, 1], pl.INT32] = pld.tensor.window(signal_buf, [3, 1], dtype=pl.INT32)
            t__tmp_v1: pl.Tensor[[1, 10000], pl.FP32] = pl.tensor.slice(x, [1, 1, 10000], [r, 0, 0], [], [0])
            t__tmp_v2: pl.Tensor[[1, 10000], pl.FP32] = pl.tensor.slice(y, [1, 1, 10000], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v1, t__tmp_v2, data, signal, device=r)
# ==== InitMemRef
# pypto.program: MeshAllReduce
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class MeshAllReduce:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_0", 0, 40000)], y: pl.Out[pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_1", 0, 40000)]], data: pl.InOut[pld.DistributedTensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_2", 0, 40000)]], signal: pl.InOut[pld.DistributedTensor[[3, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 12)]]):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 40000)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_11: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 40000)
        staged: pl.Tile[[1, 10000], pl.FP32, pl.MemRef(mem_vec_4, 0, 40000), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_2", 0, 40000)] = pl.tile.store(staged, [0, 0], data)
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
        for col in pl.range(0, 10000, 4096):
            v: pl.Scalar[pl.INDEX] = pl.min(4096, 10000 - col)
            chunk: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.load(data__ssa_v0, [0, col], [1, 4096], [1, v], target_memory=pl.Mem.Vec)
            acc: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.fillpad_inplace(chunk, pad_value=pl.PadValue.zero)
            for peer_1, (acc_iter,) in pl.range(nranks_idx, init_values=(acc,)):
                if peer_1 != my_rank:
                    recv: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pld.tile.remote_load(data__ssa_v0, peer_1, [0, col], [1, 4096], [1, v])
                    recv_pad: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.fillpad_inplace(recv, pad_value=pl.PadValue.zero)
                    acc_sum: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.add(acc_iter, recv_pad)
                    acc_next: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.yield_(acc_sum)
                else:
                    acc_next: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.yield_(acc_iter)
                acc_rv: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.yield_(acc_next)
            for peer_2 in pl.range(nranks_idx):
                if peer_2 != my_rank:
                    pld.system.notify(signal, peer_2, [my_rank, 0], pl.const(1, pl.INT32), op=0)
            for src_1 in pl.range(nranks_idx):
                if src_1 != my_rank:
                    pld.system.wait(signal, [src_1, 0], pl.cast(col // 4096 + 2, pl.INT32), cmp=1)
            acc_valid: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.set_validshape(acc_rv, 1, v)
            pl.tile.store(acc_valid, [0, col], data__ssa_v0)
        for src_2 in pl.range(nranks_idx):
            if src_2 != my_rank:
                pld.system.notify(signal, my_rank, [src_2, 0], pl.const(-4, pl.INT32), op=0)
        data__ssa_v1: pld.DistributedTensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_10", 0, 40000)] = data__ssa_v0
        out: pl.Tile[[1, 10000], pl.FP32, pl.MemRef(mem_vec_11, 0, 40000), pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_1", 0, 40000)] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[3, 1, 10000], pl.FP32, pl.MemRef("mem_ddr_0", 0, 120000)], y: pl.Out[pl.Tensor[[3, 1, 10000], pl.FP32, pl.MemRef("mem_ddr_1", 0, 120000)]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(40000)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(12)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            data: pld.DistributedTensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_2", 0, 40000)] = pld.tensor.window(data_buf, [1, 10000], dtype=pl.FP32)
            signal: pld.DistributedTensor[[3, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 12)] = pld.tensor.window(signal_buf, [3, 1], dtype=pl.INT32)
            t__tmp_v1: pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_0", r * 10000 * 4, 40000)] = pl.tensor.slice(x, [1, 1, 10000], [r, 0, 0], [], [0])
            t__tmp_v2: pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_1", r * 10000 * 4, 40000)] = pl.tensor.slice(y, [1, 1, 10000], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v1, t__tmp_v2, data, signal, device=r)
# ==== AllocateMemoryAddr
# pypto.program: MeshAllReduce
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class MeshAllReduce:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_0", 0, 40000)], y: pl.Out[pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_1", 0, 40000)]], data: pl.InOut[pld.DistributedTensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_2", 0, 40000)]], signal: pl.InOut[pld.DistributedTensor[[3, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 12)]]):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 40000)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_11: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 40000)
        staged: pl.Tile[[1, 10000], pl.FP32, pl.MemRef(mem_vec_4, 40000, 40000), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_2", 0, 40000)] = pl.tile.store(staged, [0, 0], data)
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
        for col in pl.range(0, 10000, 4096):
            v: pl.Scalar[pl.INDEX] = pl.min(4096, 10000 - col)
            chunk: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 80000, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.load(data__ssa_v0, [0, col], [1, 4096], [1, v], target_memory=pl.Mem.Vec)
            acc: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 80000, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.fillpad_inplace(chunk, pad_value=pl.PadValue.zero)
            for peer_1, (acc_iter,) in pl.range(nranks_idx, init_values=(acc,)):
                if peer_1 != my_rank:
                    recv: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 96384, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pld.tile.remote_load(data__ssa_v0, peer_1, [0, col], [1, 4096], [1, v])
                    recv_pad: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 96384, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.fillpad_inplace(recv, pad_value=pl.PadValue.zero)
                    acc_sum: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 112768, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.add(acc_iter, recv_pad)
                    acc_next: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 112768, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.yield_(acc_sum)
                else:
                    acc_next: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 112768, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.yield_(acc_iter)
                acc_rv: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 80000, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.yield_(acc_next)
            for peer_2 in pl.range(nranks_idx):
                if peer_2 != my_rank:
                    pld.system.notify(signal, peer_2, [my_rank, 0], pl.const(1, pl.INT32), op=0)
            for src_1 in pl.range(nranks_idx):
                if src_1 != my_rank:
                    pld.system.wait(signal, [src_1, 0], pl.cast(col // 4096 + 2, pl.INT32), cmp=1)
            acc_valid: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 80000, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.set_validshape(acc_rv, 1, v)
            pl.tile.store(acc_valid, [0, col], data__ssa_v0)
        for src_2 in pl.range(nranks_idx):
            if src_2 != my_rank:
                pld.system.notify(signal, my_rank, [src_2, 0], pl.const(-4, pl.INT32), op=0)
        data__ssa_v1: pld.DistributedTensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_10", 0, 40000)] = data__ssa_v0
        out: pl.Tile[[1, 10000], pl.FP32, pl.MemRef(mem_vec_11, 0, 40000), pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_1", 0, 40000)] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[3, 1, 10000], pl.FP32, pl.MemRef("mem_ddr_0", 0, 120000)], y: pl.Out[pl.Tensor[[3, 1, 10000], pl.FP32, pl.MemRef("mem_ddr_1", 0, 120000)]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(40000)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(12)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            data: pld.DistributedTensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_2", 0, 40000)] = pld.tensor.window(data_buf, [1, 10000], dtype=pl.FP32)
            signal: pld.DistributedTensor[[3, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 12)] = pld.tensor.window(signal_buf, [3, 1], dtype=pl.INT32)
            t__tmp_v1: pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_0", r * 10000 * 4, 40000)] = pl.tensor.slice(x, [1, 1, 10000], [r, 0, 0], [], [0])
            t__tmp_v2: pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_1", r * 10000 * 4, 40000)] = pl.tensor.slice(y, [1, 1, 10000], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v1, t__tmp_v2, data, signal, device=r)
# ==== SynthesizeAllReduceSignals: unchanged

# ==== MaterializeCommDomainScopes
# pypto.program: MeshAllReduce
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class MeshAllReduce:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_0", 0, 40000)], y: pl.Out[pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_1", 0, 40000)]], data: pl.InOut[pld.DistributedTensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_2", 0, 40000)]], signal: pl.InOut[pld.DistributedTensor[[3, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 12)]]):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 40000)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_11: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 40000)
        staged: pl.Tile[[1, 10000], pl.FP32, pl.MemRef(mem_vec_4, 40000, 40000), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_2", 0, 40000)] = pl.tile.store(staged, [0, 0], data)
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
        for col in pl.range(0, 10000, 4096):
            v: pl.Scalar[pl.INDEX] = pl.min(4096, 10000 - col)
            chunk: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 80000, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.load(data__ssa_v0, [0, col], [1, 4096], [1, v], target_memory=pl.Mem.Vec)
            acc: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 80000, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.fillpad_inplace(chunk, pad_value=pl.PadValue.zero)
            for peer_1, (acc_iter,) in pl.range(nranks_idx, init_values=(acc,)):
                if peer_1 != my_rank:
                    recv: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 96384, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pld.tile.remote_load(data__ssa_v0, peer_1, [0, col], [1, 4096], [1, v])
                    recv_pad: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 96384, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.fillpad_inplace(recv, pad_value=pl.PadValue.zero)
                    acc_sum: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 112768, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.add(acc_iter, recv_pad)
                    acc_next: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 112768, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.yield_(acc_sum)
                else:
                    acc_next: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 112768, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.yield_(acc_iter)
                acc_rv: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 80000, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.yield_(acc_next)
            for peer_2 in pl.range(nranks_idx):
                if peer_2 != my_rank:
                    pld.system.notify(signal, peer_2, [my_rank, 0], pl.const(1, pl.INT32), op=0)
            for src_1 in pl.range(nranks_idx):
                if src_1 != my_rank:
                    pld.system.wait(signal, [src_1, 0], pl.cast(col // 4096 + 2, pl.INT32), cmp=1)
            acc_valid: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 80000, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.set_validshape(acc_rv, 1, v)
            pl.tile.store(acc_valid, [0, col], data__ssa_v0)
        for src_2 in pl.range(nranks_idx):
            if src_2 != my_rank:
                pld.system.notify(signal, my_rank, [src_2, 0], pl.const(-4, pl.INT32), op=0)
        data__ssa_v1: pld.DistributedTensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_10", 0, 40000)] = data__ssa_v0
        out: pl.Tile[[1, 10000], pl.FP32, pl.MemRef(mem_vec_11, 0, 40000), pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_1", 0, 40000)] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[3, 1, 10000], pl.FP32, pl.MemRef("mem_ddr_0", 0, 120000)], y: pl.Out[pl.Tensor[[3, 1, 10000], pl.FP32, pl.MemRef("mem_ddr_1", 0, 120000)]]):
        # pld.comm_domain: devices=all, slots=[data_buf, signal_buf]
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(40000)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(12)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            data: pld.DistributedTensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_2", 0, 40000)] = pld.tensor.window(data_buf, [1, 10000], dtype=pl.FP32)
            signal: pld.DistributedTensor[[3, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 12)] = pld.tensor.window(signal_buf, [3, 1], dtype=pl.INT32)
            t__tmp_v1: pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_0", r * 10000 * 4, 40000)] = pl.tensor.slice(x, [1, 1, 10000], [r, 0, 0], [], [0])
            t__tmp_v2: pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_1", r * 10000 * 4, 40000)] = pl.tensor.slice(y, [1, 1, 10000], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v1, t__tmp_v2, data, signal, device=r)
# ==== LowerHostTensorCollectives: unchanged

# ==== MaterializeDistTensorCtx
# pypto.program: MeshAllReduce
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class MeshAllReduce:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_0", 0, 40000)], y: pl.Out[pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_1", 0, 40000)]], data: pl.InOut[pld.DistributedTensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_2", 0, 40000)]], signal: pl.InOut[pld.DistributedTensor[[3, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 12)]], data_ctx: pld.CommCtx, signal_ctx: pld.CommCtx):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 40000)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_11: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 40000)
        staged: pl.Tile[[1, 10000], pl.FP32, pl.MemRef(mem_vec_4, 40000, 40000), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_2", 0, 40000)] = pl.tile.store(staged, [0, 0], data)
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
        for col in pl.range(0, 10000, 4096):
            v: pl.Scalar[pl.INDEX] = pl.min(4096, 10000 - col)
            chunk: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 80000, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.load(data__ssa_v0, [0, col], [1, 4096], [1, v], target_memory=pl.Mem.Vec)
            acc: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 80000, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.fillpad_inplace(chunk, pad_value=pl.PadValue.zero)
            for peer_1, (acc_iter,) in pl.range(nranks_idx, init_values=(acc,)):
                if peer_1 != my_rank:
                    recv: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 96384, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pld.tile.remote_load(data__ssa_v0, peer_1, [0, col], [1, 4096], [1, v])
                    recv_pad: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 96384, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.fillpad_inplace(recv, pad_value=pl.PadValue.zero)
                    acc_sum: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 112768, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.add(acc_iter, recv_pad)
                    acc_next: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 112768, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.yield_(acc_sum)
                else:
                    acc_next: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 112768, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.yield_(acc_iter)
                acc_rv: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 80000, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.yield_(acc_next)
            for peer_2 in pl.range(nranks_idx):
                if peer_2 != my_rank:
                    pld.system.notify(signal, peer_2, [my_rank, 0], pl.const(1, pl.INT32), op=0)
            for src_1 in pl.range(nranks_idx):
                if src_1 != my_rank:
                    pld.system.wait(signal, [src_1, 0], pl.cast(col // 4096 + 2, pl.INT32), cmp=1)
            acc_valid: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 80000, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.set_validshape(acc_rv, 1, v)
            pl.tile.store(acc_valid, [0, col], data__ssa_v0)
        for src_2 in pl.range(nranks_idx):
            if src_2 != my_rank:
                pld.system.notify(signal, my_rank, [src_2, 0], pl.const(-4, pl.INT32), op=0)
        data__ssa_v1: pld.DistributedTensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_10", 0, 40000)] = data__ssa_v0
        out: pl.Tile[[1, 10000], pl.FP32, pl.MemRef(mem_vec_11, 0, 40000), pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_1", 0, 40000)] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[3, 1, 10000], pl.FP32, pl.MemRef("mem_ddr_0", 0, 120000)], y: pl.Out[pl.Tensor[[3, 1, 10000], pl.FP32, pl.MemRef("mem_ddr_1", 0, 120000)]]):
        # pld.comm_domain: devices=all, slots=[data_buf, signal_buf]
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(40000)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(12)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            data: pld.DistributedTensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_2", 0, 40000)] = pld.tensor.window(data_buf, [1, 10000], dtype=pl.FP32)
            signal: pld.DistributedTensor[[3, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 12)] = pld.tensor.window(signal_buf, [3, 1], dtype=pl.INT32)
            t__tmp_v1: pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_0", r * 10000 * 4, 40000)] = pl.tensor.slice(x, [1, 1, 10000], [r, 0, 0], [], [0])
            t__tmp_v2: pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_1", r * 10000 * 4, 40000)] = pl.tensor.slice(y, [1, 1, 10000], [r, 0, 0], [], [0])
            data_ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
            signal_ctx: pld.CommCtx = pld.system.get_comm_ctx(signal)
            self.kernel(t__tmp_v1, t__tmp_v2, data, signal, data_ctx, signal_ctx, device=r)
# ==== InsertCommFence
# pypto.program: MeshAllReduce
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class MeshAllReduce:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_0", 0, 40000)], y: pl.Out[pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_1", 0, 40000)]], data: pl.InOut[pld.DistributedTensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_2", 0, 40000)]], signal: pl.InOut[pld.DistributedTensor[[3, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 12)]], data_ctx: pld.CommCtx, signal_ctx: pld.CommCtx):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 40000)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_11: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 40000)
        staged: pl.Tile[[1, 10000], pl.FP32, pl.MemRef(mem_vec_4, 40000, 40000), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_2", 0, 40000)] = pl.tile.store(staged, [0, 0], data)
        pl.system.cacheinvalid(data, [1, 10000], [0, 0])
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
        for col in pl.range(0, 10000, 4096):
            v: pl.Scalar[pl.INDEX] = pl.min(4096, 10000 - col)
            chunk: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 80000, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.load(data__ssa_v0, [0, col], [1, 4096], [1, v], target_memory=pl.Mem.Vec)
            acc: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 80000, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.fillpad_inplace(chunk, pad_value=pl.PadValue.zero)
            for peer_1, (acc_iter,) in pl.range(nranks_idx, init_values=(acc,)):
                if peer_1 != my_rank:
                    recv: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 96384, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pld.tile.remote_load(data__ssa_v0, peer_1, [0, col], [1, 4096], [1, v])
                    recv_pad: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 96384, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.fillpad_inplace(recv, pad_value=pl.PadValue.zero)
                    acc_sum: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 112768, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.add(acc_iter, recv_pad)
                    acc_next: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 112768, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.yield_(acc_sum)
                else:
                    acc_next: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 112768, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.yield_(acc_iter)
                acc_rv: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 80000, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.yield_(acc_next)
            for peer_2 in pl.range(nranks_idx):
                if peer_2 != my_rank:
                    pld.system.notify(signal, peer_2, [my_rank, 0], pl.const(1, pl.INT32), op=0)
            for src_1 in pl.range(nranks_idx):
                if src_1 != my_rank:
                    pld.system.wait(signal, [src_1, 0], pl.cast(col // 4096 + 2, pl.INT32), cmp=1)
                    pl.system.cacheinvalid()
            acc_valid: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 80000, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, v])] = pl.tile.set_validshape(acc_rv, 1, v)
            pl.tile.store(acc_valid, [0, col], data__ssa_v0)
            pl.system.cacheinvalid(data__ssa_v0, [1, 10000], [0, 0])
            pl.system.fence()
        for src_2 in pl.range(nranks_idx):
            if src_2 != my_rank:
                pld.system.notify(signal, my_rank, [src_2, 0], pl.const(-4, pl.INT32), op=0)
        data__ssa_v1: pld.DistributedTensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_10", 0, 40000)] = data__ssa_v0
        out: pl.Tile[[1, 10000], pl.FP32, pl.MemRef(mem_vec_11, 0, 40000), pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [1, 10000], [1, 10000], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_1", 0, 40000)] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[3, 1, 10000], pl.FP32, pl.MemRef("mem_ddr_0", 0, 120000)], y: pl.Out[pl.Tensor[[3, 1, 10000], pl.FP32, pl.MemRef("mem_ddr_1", 0, 120000)]]):
        # pld.comm_domain: devices=all, slots=[data_buf, signal_buf]
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(40000)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(12)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            data: pld.DistributedTensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_2", 0, 40000)] = pld.tensor.window(data_buf, [1, 10000], dtype=pl.FP32)
            signal: pld.DistributedTensor[[3, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 12)] = pld.tensor.window(signal_buf, [3, 1], dtype=pl.INT32)
            t__tmp_v1: pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_0", r * 10000 * 4, 40000)] = pl.tensor.slice(x, [1, 1, 10000], [r, 0, 0], [], [0])
            t__tmp_v2: pl.Tensor[[1, 10000], pl.FP32, pl.MemRef("mem_ddr_1", r * 10000 * 4, 40000)] = pl.tensor.slice(y, [1, 1, 10000], [r, 0, 0], [], [0])
            data_ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
            signal_ctx: pld.CommCtx = pld.system.get_comm_ctx(signal)
            self.kernel(t__tmp_v1, t__tmp_v2, data, signal, data_ctx, signal_ctx, device=r)
