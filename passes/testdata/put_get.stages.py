# ==== Input
# pypto.program: PutGet
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class PutGet:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 16], pl.FP32], y: pl.Out[pl.Tensor[[NR, 16], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        right: pl.Scalar[pl.INT32] = (my_rank + 1) % nranks
        left: pl.Scalar[pl.INT32] = (my_rank - 1 + nranks) % nranks
        pld.tensor.put(data, right, x, atomic=pl.AtomicType.None_)
        pld.system.notify(signal, right, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        pld.system.wait(signal, [left, 0], pl.const(1, pl.INT32), cmp=1)
        pld.tensor.get(y, right, data, [0, 0], [0, 0], [1, 16])
        pld.system.notify(signal, my_rank, [left, 0], pl.const(-1, pl.INT32), op=0)
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[NR, 1, 16], pl.FP32], y: pl.Out[pl.Tensor[[NR, NR, 16], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(pld.system.world_size() * 4)
        for r in pl.range(pld.system.world_size()):
            data: pld.DistributedTensor[[1, 16], pl.FP32] = pld.tensor.window(data_buf, [1, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[pld.system.world_size(), 1], pl.INT32] = pld.tensor.window(signal_buf, [pld.system.world_size(), 1], dtype=pl.INT32)
            self.kernel(pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0]), pl.tensor.slice(y, [1, NR, 16], [r, 0, 0], [], [0]), data, signal, device=r)
# ==== CtrlFlowTransform: unchanged

# ==== ConvertToSSA: unchanged

# ==== FlattenCallExpr
# pypto.program: PutGet
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class PutGet:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 16], pl.FP32], y: pl.Out[pl.Tensor[[NR, 16], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        right: pl.Scalar[pl.INT32] = (my_rank + 1) % nranks
        left: pl.Scalar[pl.INT32] = (my_rank - 1 + nranks) % nranks
        pld.tensor.put(data, right, x, atomic=pl.AtomicType.None_)
        pld.system.notify(signal, right, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        pld.system.wait(signal, [left, 0], pl.const(1, pl.INT32), cmp=1)
        pld.tensor.get(y, right, data, [0, 0], [0, 0], [1, 16])
        pld.system.notify(signal, my_rank, [left, 0], pl.const(-1, pl.INT32), op=0)
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[NR, 1, 16], pl.FP32], y: pl.Out[pl.Tensor[[NR, NR, 16], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 4)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v1):
            data: pld.DistributedTensor[[1, 16], pl.FP32] = pld.tensor.window(data_buf, [1, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[pld.system.world_size(), 1], pl.INT32] = pld.tensor.window(signal_buf, [pld.system.world_size(), 1], dtype=pl.INT32)
            t__tmp_v2: pl.Tensor[[1, 16], pl.FP32] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            t__tmp_v3: pl.Tensor[[NR, 16], pl.FP32] = pl.tensor.slice(y, [1, NR, 16], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v2, t__tmp_v3, data, signal, device=r)
# ==== OutlineHierarchyScopes: unchanged

# ==== OutlineIncoreScopes: unchanged

# ==== ConvertTensorToTileOps
# pypto.program: PutGet
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class PutGet:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 16], pl.FP32], y: pl.Out[pl.Tensor[[NR, 16], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        right: pl.Scalar[pl.INT32] = (my_rank + 1) % nranks
        left: pl.Scalar[pl.INT32] = (my_rank - 1 + nranks) % nranks
        tput_stage: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        pld.tile.put(data, right, x, tput_stage, atomic=pl.AtomicType.None_)
        pld.system.notify(signal, right, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        pld.system.wait(signal, [left, 0], pl.const(1, pl.INT32), cmp=1)
        tget_stage: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        pld.tile.get(y, right, data, tget_stage, [0, 0], [0, 0], [1, 16])
        pld.system.notify(signal, my_rank, [left, 0], pl.const(-1, pl.INT32), op=0)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[NR, 1, 16], pl.FP32], y: pl.Out[pl.Tensor[[NR, NR, 16], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 4)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v1):
            data: pld.DistributedTensor[[1, 16], pl.FP32] = pld.tensor.window(data_buf, [1, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[pld.system.world_size(), 1], pl.INT32] = pld.tensor.window(signal_buf, [pld.system.world_size(), 1], dtype=pl.INT32)
            t__tmp_v2: pl.Tensor[[1, 16], pl.FP32] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            t__tmp_v3: pl.Tensor[[NR, 16], pl.FP32] = pl.tensor.slice(y, [1, NR, 16], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v2, t__tmp_v3, data, signal, device=r)
# ==== LowerCompositeOps: unchanged

# ==== FlattenTileNdTo2D: unchanged

# ==== InferTileMemorySpace: unchanged

# ==== InitMemRef
# pypto.program: PutGet
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class PutGet:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], y: pl.Out[pl.Tensor[[NR, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 0)]], data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 64)]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)]]):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        right: pl.Scalar[pl.INT32] = (my_rank + 1) % nranks
        left: pl.Scalar[pl.INT32] = (my_rank - 1 + nranks) % nranks
        tput_stage: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_4, 0, 64), pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        pld.tile.put(data, right, x, tput_stage, atomic=pl.AtomicType.None_)
        pld.system.notify(signal, right, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        pld.system.wait(signal, [left, 0], pl.const(1, pl.INT32), cmp=1)
        tget_stage: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_5, 0, 64), pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        pld.tile.get(y, right, data, tget_stage, [0, 0], [0, 0], [1, 16])
        pld.system.notify(signal, my_rank, [left, 0], pl.const(-1, pl.INT32), op=0)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[NR, 1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 0)], y: pl.Out[pl.Tensor[[NR, NR, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 0)]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 4)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v1):
            data: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 64)] = pld.tensor.window(data_buf, [1, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[pld.system.world_size(), 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)] = pld.tensor.window(signal_buf, [pld.system.world_size(), 1], dtype=pl.INT32)
            t__tmp_v2: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 16 * 4, 0)] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            t__tmp_v3: pl.Tensor[[NR, 16], pl.FP32, pl.MemRef("mem_ddr_1", r * NR * 16 * 4, 0)] = pl.tensor.slice(y, [1, NR, 16], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v2, t__tmp_v3, data, signal, device=r)
# ==== AllocateMemoryAddr
# pypto.program: PutGet
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class PutGet:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], y: pl.Out[pl.Tensor[[NR, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 0)]], data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 64)]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)]]):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        right: pl.Scalar[pl.INT32] = (my_rank + 1) % nranks
        left: pl.Scalar[pl.INT32] = (my_rank - 1 + nranks) % nranks
        tput_stage: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_4, 0, 64), pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        pld.tile.put(data, right, x, tput_stage, atomic=pl.AtomicType.None_)
        pld.system.notify(signal, right, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        pld.system.wait(signal, [left, 0], pl.const(1, pl.INT32), cmp=1)
        tget_stage: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_5, 64, 64), pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        pld.tile.get(y, right, data, tget_stage, [0, 0], [0, 0], [1, 16])
        pld.system.notify(signal, my_rank, [left, 0], pl.const(-1, pl.INT32), op=0)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[NR, 1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 0)], y: pl.Out[pl.Tensor[[NR, NR, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 0)]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 4)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v1):
            data: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 64)] = pld.tensor.window(data_buf, [1, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[pld.system.world_size(), 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)] = pld.tensor.window(signal_buf, [pld.system.world_size(), 1], dtype=pl.INT32)
            t__tmp_v2: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 16 * 4, 0)] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            t__tmp_v3: pl.Tensor[[NR, 16], pl.FP32, pl.MemRef("mem_ddr_1", r * NR * 16 * 4, 0)] = pl.tensor.slice(y, [1, NR, 16], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v2, t__tmp_v3, data, signal, device=r)
# ==== SynthesizeAllReduceSignals: unchanged

# ==== MaterializeCommDomainScopes
# pypto.program: PutGet
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class PutGet:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], y: pl.Out[pl.Tensor[[NR, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 0)]], data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 64)]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)]]):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        right: pl.Scalar[pl.INT32] = (my_rank + 1) % nranks
        left: pl.Scalar[pl.INT32] = (my_rank - 1 + nranks) % nranks
        tput_stage: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_4, 0, 64), pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        pld.tile.put(data, right, x, tput_stage, atomic=pl.AtomicType.None_)
        pld.system.notify(signal, right, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        pld.system.wait(signal, [left, 0], pl.const(1, pl.INT32), cmp=1)
        tget_stage: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_5, 64, 64), pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        pld.tile.get(y, right, data, tget_stage, [0, 0], [0, 0], [1, 16])
        pld.system.notify(signal, my_rank, [left, 0], pl.const(-1, pl.INT32), op=0)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[NR, 1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 0)], y: pl.Out[pl.Tensor[[NR, NR, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 0)]]):
        # pld.comm_domain: devices=all, slots=[data_buf, signal_buf]
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 4)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v1):
            data: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 64)] = pld.tensor.window(data_buf, [1, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[pld.system.world_size(), 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)] = pld.tensor.window(signal_buf, [pld.system.world_size(), 1], dtype=pl.INT32)
            t__tmp_v2: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 16 * 4, 0)] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            t__tmp_v3: pl.Tensor[[NR, 16], pl.FP32, pl.MemRef("mem_ddr_1", r * NR * 16 * 4, 0)] = pl.tensor.slice(y, [1, NR, 16], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v2, t__tmp_v3, data, signal, device=r)
# ==== LowerHostTensorCollectives: unchanged

# ==== MaterializeDistTensorCtx
# pypto.program: PutGet
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class PutGet:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], y: pl.Out[pl.Tensor[[NR, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 0)]], data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 64)]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)]], data_ctx: pld.CommCtx, signal_ctx: pld.CommCtx):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        ctx: pld.CommCtx = data_ctx
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        right: pl.Scalar[pl.INT32] = (my_rank + 1) % nranks
        left: pl.Scalar[pl.INT32] = (my_rank - 1 + nranks) % nranks
        tput_stage: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_4, 0, 64), pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        pld.tile.put(data, right, x, tput_stage, atomic=pl.AtomicType.None_)
        pld.system.notify(signal, right, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        pld.system.wait(signal, [left, 0], pl.const(1, pl.INT32), cmp=1)
        tget_stage: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_5, 64, 64), pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        pld.tile.get(y, right, data, tget_stage, [0, 0], [0, 0], [1, 16])
        pld.system.notify(signal, my_rank, [left, 0], pl.const(-1, pl.INT32), op=0)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[NR, 1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 0)], y: pl.Out[pl.Tensor[[NR, NR, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 0)]]):
        # pld.comm_domain: devices=all, slots=[data_buf, signal_buf]
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 4)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v1):
            data: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 64)] = pld.tensor.window(data_buf, [1, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[pld.system.world_size(), 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)] = pld.tensor.window(signal_buf, [pld.system.world_size(), 1], dtype=pl.INT32)
            t__tmp_v2: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 16 * 4, 0)] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            t__tmp_v3: pl.Tensor[[NR, 16], pl.FP32, pl.MemRef("mem_ddr_1", r * NR * 16 * 4, 0)] = pl.tensor.slice(y, [1, NR, 16], [r, 0, 0], [], [0])
            data_ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
            signal_ctx: pld.CommCtx = pld.system.get_comm_ctx(signal)
            self.kernel(t__tmp_v2, t__tmp_v3, data, signal, data_ctx, signal_ctx, device=r)
# ==== InsertCommFence
# pypto.program: PutGet
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class PutGet:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], y: pl.Out[pl.Tensor[[NR, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 0)]], data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 64)]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)]], data_ctx: pld.CommCtx, signal_ctx: pld.CommCtx):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        ctx: pld.CommCtx = data_ctx
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        right: pl.Scalar[pl.INT32] = (my_rank + 1) % nranks
        left: pl.Scalar[pl.INT32] = (my_rank - 1 + nranks) % nranks
        tput_stage: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_4, 0, 64), pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        pld.tile.put(data, right, x, tput_stage, atomic=pl.AtomicType.None_)
        pl.system.fence()
        pld.system.notify(signal, right, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        pld.system.wait(signal, [left, 0], pl.const(1, pl.INT32), cmp=1)
        pl.system.cacheinvalid()
        tget_stage: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_5, 64, 64), pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        pld.tile.get(y, right, data, tget_stage, [0, 0], [0, 0], [1, 16])
        pld.system.notify(signal, my_rank, [left, 0], pl.const(-1, pl.INT32), op=0)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[NR, 1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 0)], y: pl.Out[pl.Tensor[[NR, NR, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 0)]]):
        # pld.comm_domain: devices=all, slots=[data_buf, signal_buf]
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 4)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v1):
            data: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 64)] = pld.tensor.window(data_buf, [1, 16], dtype=pl.FP32)
            signal: pld.DistributedTensor[[pld.system.world_size(), 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)] = pld.tensor.window(signal_buf, [pld.system.world_size(), 1], dtype=pl.INT32)
            t__tmp_v2: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 16 * 4, 0)] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            t__tmp_v3: pl.Tensor[[NR, 16], pl.FP32, pl.MemRef("mem_ddr_1", r * NR * 16 * 4, 0)] = pl.tensor.slice(y, [1, NR, 16], [r, 0, 0], [], [0])
            data_ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
            signal_ctx: pld.CommCtx = pld.system.get_comm_ctx(signal)
            self.kernel(t__tmp_v2, t__tmp_v3, data, signal, data_ctx, signal_ctx, device=r)
