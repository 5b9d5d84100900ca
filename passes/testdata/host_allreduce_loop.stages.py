# ==== Input
# pypto.program: HostAllReduceLoop
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class HostAllReduceLoop:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def read_back(data: pld.DistributedTensor[[1, 16], pl.FP32], y: pl.Out[pl.Tensor[[1, 16], pl.FP32]]):
        got: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data, [0, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        y_1: pl.Tensor[[1, 16], pl.FP32] = pl.tile.store(got, [0, 0], y)
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def stage(x: pl.Tensor[[1, 16], pl.FP32], data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32]]):
        staged: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        data_1: pld.DistributedTensor[[1, 16], pl.FP32] = pl.tile.store(staged, [0, 0], data)
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[NR, 1, 16], pl.FP32], y: pl.Out[pl.Tensor[[NR, 1, 16], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
        data: pld.DistributedTensor[[1, 16], pl.FP32] = pld.tensor.window(data_buf, [1, 16], dtype=pl.FP32)
        for r in pl.range(pld.system.world_size()):
            self.stage(pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0]), data, device=r)
        for i in pl.range(3):
            data_1: pld.DistributedTensor[[1, 16], pl.FP32] = pld.tensor.allreduce(data, op=0, mode='mesh', core_num=1)
        for r_1 in pl.range(pld.system.world_size()):
            self.read_back(data_1, pl.tensor.slice(y, [1, 1, 16], [r_1, 0, 0], [], [0]), device=r_1)
# ==== CtrlFlowTransform: unchanged

# ==== ConvertToSSA
# pypto.program: HostAllReduceLoop
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class HostAllReduceLoop:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def read_back(data: pld.DistributedTensor[[1, 16], pl.FP32], y: pl.Out[pl.Tensor[[1, 16], pl.FP32]]):
        got: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data, [0, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 16], pl.FP32] = pl.tile.store(got, [0, 0], y)
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def stage(x: pl.Tensor[[1, 16], pl.FP32], data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32]]):
        staged: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 16], pl.FP32] = pl.tile.store(staged, [0, 0], data)
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[NR, 1, 16], pl.FP32], y: pl.Out[pl.Tensor[[NR, 1, 16], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
        data__ssa_v0: pld.DistributedTensor[[1, 16], pl.FP32] = pld.tensor.window(data_buf, [1, 16], dtype=pl.FP32)
        for r in pl.range(pld.system.world_size()):
            self.stage(pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0]), data__ssa_v0, device=r)
        for i, (data__iter_v1,) in pl.range(3, init_values=(data__ssa_v0,)):
            data__ssa_v2: pld.DistributedTensor[[1, 16], pl.FP32] = pld.tensor.allreduce(data__iter_v1, op=0, mode='mesh', core_num=1)
            data__rv_v3: pld.DistributedTensor[[1, 16], pl.FP32] = pl.yield_(data__ssa_v2)
        for r_1 in pl.range(pld.system.world_size()):
            self.read_back(data__rv_v3, pl.tensor.slice(y, [1, 1, 16], [r_1, 0, 0], [], [0]), device=r_1)
# ==== FlattenCallExpr
# pypto.program: HostAllReduceLoop
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class HostAllReduceLoop:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def read_back(data: pld.DistributedTensor[[1, 16], pl.FP32], y: pl.Out[pl.Tensor[[1, 16], pl.FP32]]):
        got: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data, [0, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 16], pl.FP32] = pl.tile.store(got, [0, 0], y)
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def stage(x: pl.Tensor[[1, 16], pl.FP32], data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32]]):
        staged: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 16], pl.FP32] = pl.tile.store(staged, [0, 0], data)
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[NR, 1, 16], pl.FP32], y: pl.Out[pl.Tensor[[NR, 1, 16], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
        data__ssa_v0: pld.DistributedTensor[[1, 16], pl.FP32] = pld.tensor.window(data_buf, [1, 16], dtype=pl.FP32)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            t__tmp_v1: pl.Tensor[[1, 16], pl.FP32] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            self.stage(t__tmp_v1, data__ssa_v0, device=r)
        for i, (data__iter_v1,) in pl.range(3, init_values=(data__ssa_v0,)):
            data__ssa_v2: pld.DistributedTensor[[1, 16], pl.FP32] = pld.tensor.allreduce(data__iter_v1, op=0, mode='mesh', core_num=1)
            data__rv_v3: pld.DistributedTensor[[1, 16], pl.FP32] = pl.yield_(data__ssa_v2)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r_1 in pl.range(t__tmp_v2):
            t__tmp_v3: pl.Tensor[[1, 16], pl.FP32] = pl.tensor.slice(y, [1, 1, 16], [r_1, 0, 0], [], [0])
            self.read_back(data__rv_v3, t__tmp_v3, device=r_1)
# ==== OutlineHierarchyScopes: unchanged

# ==== OutlineIncoreScopes: unchanged

# ==== ConvertTensorToTileOps
# pypto.program: HostAllReduceLoop
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class HostAllReduceLoop:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def read_back(data: pld.DistributedTensor[[1, 16], pl.FP32], y: pl.Out[pl.Tensor[[1, 16], pl.FP32]]):
        got: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(data, [0, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 16], pl.FP32] = pl.tile.store(got, [0, 0], y)
        return
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def stage(x: pl.Tensor[[1, 16], pl.FP32], data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32]]):
        staged: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 16], pl.FP32] = pl.tile.store(staged, [0, 0], data)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[NR, 1, 16], pl.FP32], y: pl.Out[pl.Tensor[[NR, 1, 16], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
        data__ssa_v0: pld.DistributedTensor[[1, 16], pl.FP32] = pld.tensor.window(data_buf, [1, 16], dtype=pl.FP32)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            t__tmp_v1: pl.Tensor[[1, 16], pl.FP32] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            self.stage(t__tmp_v1, data__ssa_v0, device=r)
        for i, (data__iter_v1,) in pl.range(3, init_values=(data__ssa_v0,)):
            data__ssa_v2: pld.DistributedTensor[[1, 16], pl.FP32] = pld.tensor.allreduce(data__iter_v1, op=0, mode='mesh', core_num=1)
            data__rv_v3: pld.DistributedTensor[[1, 16], pl.FP32] = pl.yield_(data__ssa_v2)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r_1 in pl.range(t__tmp_v2):
            t__tmp_v3: pl.Tensor[[1, 16], pl.FP32] = pl.tensor.slice(y, [1, 1, 16], [r_1, 0, 0], [], [0])
            self.read_back(data__rv_v3, t__tmp_v3, device=r_1)
# ==== LowerCompositeOps: unchanged

# ==== FlattenTileNdTo2D: unchanged

# ==== InferTileMemorySpace: unchanged

# ==== InitMemRef
# pypto.program: HostAllReduceLoop
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class HostAllReduceLoop:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def read_back(data: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], y: pl.Out[pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)]]):
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        got: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_2, 0, 64), pl.Mem.Vec] = pl.tile.load(data, [0, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)] = pl.tile.store(got, [0, 0], y)
        return
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def stage(x: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)]]):
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        staged: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_2, 0, 64), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)] = pl.tile.store(staged, [0, 0], data)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[NR, 1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 0)], y: pl.Out[pl.Tensor[[NR, 1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 0)]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
        data__ssa_v0: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 64)] = pld.tensor.window(data_buf, [1, 16], dtype=pl.FP32)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            t__tmp_v1: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 16 * 4, 0)] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            self.stage(t__tmp_v1, data__ssa_v0, device=r)
        for i, (data__iter_v1,) in pl.range(3, init_values=(data__ssa_v0,)):
            data__ssa_v2: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_3", 0, 64)] = pld.tensor.allreduce(data__iter_v1, op=0, mode='mesh', core_num=1)
            data__rv_v3: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_4", 0, 64)] = pl.yield_(data__ssa_v2)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r_1 in pl.range(t__tmp_v2):
            t__tmp_v3: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", r_1 * 16 * 4, 0)] = pl.tensor.slice(y, [1, 1, 16], [r_1, 0, 0], [], [0])
            self.read_back(data__rv_v3, t__tmp_v3, device=r_1)
# ==== AllocateMemoryAddr: unchanged

# ==== SynthesizeAllReduceSignals
# pypto.program: HostAllReduceLoop
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class HostAllReduceLoop:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def read_back(data: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], y: pl.Out[pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)]]):
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        got: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_2, 0, 64), pl.Mem.Vec] = pl.tile.load(data, [0, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)] = pl.tile.store(got, [0, 0], y)
        return
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def stage(x: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)]]):
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        staged: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_2, 0, 64), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)] = pl.tile.store(staged, [0, 0], data)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[NR, 1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 0)], y: pl.Out[pl.Tensor[[NR, 1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 0)]]):
        __allreduce_signal_world_size_0: pl.Scalar[pl.INT64] = pld.system.world_size()
        __allreduce_signal_buf_0: pl.Ptr = pld.tensor.alloc_window_buffer(__allreduce_signal_world_size_0 * pl.const(1, pl.INT64) * pl.const(4, pl.INT64))
        __allreduce_signal_0: pld.DistributedTensor[[__allreduce_signal_world_size_0, 1], pl.INT32] = pld.tensor.window(__allreduce_signal_buf_0, [__allreduce_signal_world_size_0, 1], dtype=pl.INT32)
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
        data__ssa_v0: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 64)] = pld.tensor.window(data_buf, [1, 16], dtype=pl.FP32)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            t__tmp_v1: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 16 * 4, 0)] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            self.stage(t__tmp_v1, data__ssa_v0, device=r)
        for i, (data__iter_v1,) in pl.range(3, init_values=(data__ssa_v0,)):
            data__ssa_v2: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_3", 0, 64)] = pld.tensor.allreduce(data__iter_v1, __allreduce_signal_0, op=0, mode='mesh', core_num=1)
            data__rv_v3: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_4", 0, 64)] = pl.yield_(data__ssa_v2)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r_1 in pl.range(t__tmp_v2):
            t__tmp_v3: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", r_1 * 16 * 4, 0)] = pl.tensor.slice(y, [1, 1, 16], [r_1, 0, 0], [], [0])
            self.read_back(data__rv_v3, t__tmp_v3, device=r_1)
# ==== MaterializeCommDomainScopes
# pypto.program: HostAllReduceLoop
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class HostAllReduceLoop:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def read_back(data: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], y: pl.Out[pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)]]):
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        got: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_2, 0, 64), pl.Mem.Vec] = pl.tile.load(data, [0, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)] = pl.tile.store(got, [0, 0], y)
        return
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def stage(x: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)]]):
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        staged: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_2, 0, 64), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)] = pl.tile.store(staged, [0, 0], data)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[NR, 1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 0)], y: pl.Out[pl.Tensor[[NR, 1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 0)]]):
        # pld.comm_domain: devices=all, slots=[__allreduce_signal_buf_0, data_buf]
        __allreduce_signal_world_size_0: pl.Scalar[pl.INT64] = pld.system.world_size()
        __allreduce_signal_buf_0: pl.Ptr = pld.tensor.alloc_window_buffer(__allreduce_signal_world_size_0 * pl.const(1, pl.INT64) * pl.const(4, pl.INT64))
        __allreduce_signal_0: pld.DistributedTensor[[__allreduce_signal_world_size_0, 1], pl.INT32] = pld.tensor.window(__allreduce_signal_buf_0, [__allreduce_signal_world_size_0, 1], dtype=pl.INT32)
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
        data__ssa_v0: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 64)] = pld.tensor.window(data_buf, [1, 16], dtype=pl.FP32)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            t__tmp_v1: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 16 * 4, 0)] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            self.stage(t__tmp_v1, data__ssa_v0, device=r)
        for i, (data__iter_v1,) in pl.range(3, init_values=(data__ssa_v0,)):
            data__ssa_v2: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_3", 0, 64)] = pld.tensor.allreduce(data__iter_v1, __allreduce_signal_0, op=0, mode='mesh', core_num=1)
            data__rv_v3: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_4", 0, 64)] = pl.yield_(data__ssa_v2)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r_1 in pl.range(t__tmp_v2):
            t__tmp_v3: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", r_1 * 16 * 4, 0)] = pl.tensor.slice(y, [1, 1, 16], [r_1, 0, 0], [], [0])
            self.read_back(data__rv_v3, t__tmp_v3, device=r_1)
# ==== LowerHostTensorCollectives
# pypto.program: HostAllReduceLoop
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class HostAllReduceLoop:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def read_back(data: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], y: pl.Out[pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)]]):
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        got: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_2, 0, 64), pl.Mem.Vec] = pl.tile.load(data, [0, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)] = pl.tile.store(got, [0, 0], y)
        return
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def stage(x: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)]]):
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        staged: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_2, 0, 64), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)] = pl.tile.store(staged, [0, 0], data)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[NR, 1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 0)], y: pl.Out[pl.Tensor[[NR, 1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 0)]]):
        # pld.comm_domain: devices=all, slots=[__allreduce_signal_buf_0, data_buf]
        __allreduce_signal_world_size_0: pl.Scalar[pl.INT64] = pld.system.world_size()
        __allreduce_signal_buf_0: pl.Ptr = pld.tensor.alloc_window_buffer(__allreduce_signal_world_size_0 * pl.const(1, pl.INT64) * pl.const(4, pl.INT64))
        __allreduce_signal_0: pld.DistributedTensor[[__allreduce_signal_world_size_0, 1], pl.INT32] = pld.tensor.window(__allreduce_signal_buf_0, [__allreduce_signal_world_size_0, 1], dtype=pl.INT32)
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
        data__ssa_v0: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 64)] = pld.tensor.window(data_buf, [1, 16], dtype=pl.FP32)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            t__tmp_v1: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 16 * 4, 0)] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            self.stage(t__tmp_v1, data__ssa_v0, device=r)
        for i, (data__iter_v1,) in pl.range(3, init_values=(data__ssa_v0,)):
            for r_1 in pl.range(pld.system.world_size()):
                builtin.tensor.allreduce(data__iter_v1, __allreduce_signal_0, op=0, dtype=pl.FP32, core_num=1, device=r_1)
            data__ssa_v2: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_3", 0, 64)] = data__iter_v1
            data__rv_v3: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_4", 0, 64)] = pl.yield_(data__ssa_v2)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r_2 in pl.range(t__tmp_v2):
            t__tmp_v3: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", r_2 * 16 * 4, 0)] = pl.tensor.slice(y, [1, 1, 16], [r_2, 0, 0], [], [0])
            self.read_back(data__rv_v3, t__tmp_v3, device=r_2)
# ==== MaterializeDistTensorCtx
# pypto.program: HostAllReduceLoop
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class HostAllReduceLoop:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def read_back(data: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], y: pl.Out[pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)]], data_ctx: pld.CommCtx):
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        got: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_2, 0, 64), pl.Mem.Vec] = pl.tile.load(data, [0, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)] = pl.tile.store(got, [0, 0], y)
        return
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def stage(x: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)]], data_ctx: pld.CommCtx):
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        staged: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_2, 0, 64), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)] = pl.tile.store(staged, [0, 0], data)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[NR, 1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 0)], y: pl.Out[pl.Tensor[[NR, 1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 0)]]):
        # pld.comm_domain: devices=all, slots=[__allreduce_signal_buf_0, data_buf]
        __allreduce_signal_world_size_0: pl.Scalar[pl.INT64] = pld.system.world_size()
        __allreduce_signal_buf_0: pl.Ptr = pld.tensor.alloc_window_buffer(__allreduce_signal_world_size_0 * pl.const(1, pl.INT64) * pl.const(4, pl.INT64))
        __allreduce_signal_0: pld.DistributedTensor[[__allreduce_signal_world_size_0, 1], pl.INT32] = pld.tensor.window(__allreduce_signal_buf_0, [__allreduce_signal_world_size_0, 1], dtype=pl.INT32)
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
        data__ssa_v0: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 64)] = pld.tensor.window(data_buf, [1, 16], dtype=pl.FP32)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            t__tmp_v1: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 16 * 4, 0)] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            data__ssa_v0_ctx: pld.CommCtx = pld.system.get_comm_ctx(data__ssa_v0)
            self.stage(t__tmp_v1, data__ssa_v0, data__ssa_v0_ctx, device=r)
        for i, (data__iter_v1,) in pl.range(3, init_values=(data__ssa_v0,)):
            for r_1 in pl.range(pld.system.world_size()):
                builtin.tensor.allreduce(data__iter_v1, __allreduce_signal_0, op=0, dtype=pl.FP32, core_num=1, device=r_1)
            data__ssa_v2: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_3", 0, 64)] = data__iter_v1
            data__rv_v3: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_4", 0, 64)] = pl.yield_(data__ssa_v2)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r_2 in pl.range(t__tmp_v2):
            t__tmp_v3: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", r_2 * 16 * 4, 0)] = pl.tensor.slice(y, [1, 1, 16], [r_2, 0, 0], [], [0])
            data__rv_v3_ctx: pld.CommCtx = pld.system.get_comm_ctx(data__rv_v3)
            self.read_back(data__rv_v3, t__tmp_v3, data__rv_v3_ctx, device=r_2)
# ==== InsertCommFence
# pypto.program: HostAllReduceLoop
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class HostAllReduceLoop:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def read_back(data: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], y: pl.Out[pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)]], data_ctx: pld.CommCtx):
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        got: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_2, 0, 64), pl.Mem.Vec] = pl.tile.load(data, [0, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)] = pl.tile.store(got, [0, 0], y)
        return
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def stage(x: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 64)], data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)]], data_ctx: pld.CommCtx):
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        staged: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_2, 0, 64), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 16], [1, 16], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 64)] = pl.tile.store(staged, [0, 0], data)
        pl.system.cacheinvalid(data, [1, 16], [0, 0])
        pl.system.fence()
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[NR, 1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 0)], y: pl.Out[pl.Tensor[[NR, 1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 0)]]):
        # pld.comm_domain: devices=all, slots=[__allreduce_signal_buf_0, data_buf]
        __allreduce_signal_world_size_0: pl.Scalar[pl.INT64] = pld.system.world_size()
        __allreduce_signal_buf_0: pl.Ptr = pld.tensor.alloc_window_buffer(__allreduce_signal_world_size_0 * pl.const(1, pl.INT64) * pl.const(4, pl.INT64))
        __allreduce_signal_0: pld.DistributedTensor[[__allreduce_signal_world_size_0, 1], pl.INT32] = pld.tensor.window(__allreduce_signal_buf_0, [__allreduce_signal_world_size_0, 1], dtype=pl.INT32)
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
        data__ssa_v0: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 64)] = pld.tensor.window(data_buf, [1, 16], dtype=pl.FP32)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            t__tmp_v1: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 16 * 4, 0)] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            data__ssa_v0_ctx: pld.CommCtx = pld.system.get_comm_ctx(data__ssa_v0)
            self.stage(t__tmp_v1, data__ssa_v0, data__ssa_v0_ctx, device=r)
        for i, (data__iter_v1,) in pl.range(3, init_values=(data__ssa_v0,)):
            for r_1 in pl.range(pld.system.world_size()):
                builtin.tensor.allreduce(data__iter_v1, __allreduce_signal_0, op=0, dtype=pl.FP32, core_num=1, device=r_1)
            data__ssa_v2: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_3", 0, 64)] = data__iter_v1
            data__rv_v3: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_4", 0, 64)] = pl.yield_(data__ssa_v2)
        t__tmp_v2: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r_2 in pl.range(t__tmp_v2):
            t__tmp_v3: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", r_2 * 16 * 4, 0)] = pl.tensor.slice(y, [1, 1, 16], [r_2, 0, 0], [], [0])
            data__rv_v3_ctx: pld.CommCtx = pld.system.get_comm_ctx(data__rv_v3)
            self.read_back(data__rv_v3, t__tmp_v3, data__rv_v3_ctx, device=r_2)
