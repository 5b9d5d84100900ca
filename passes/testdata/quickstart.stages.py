# ==== Input
# pypto.program: Quickstart
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class Quickstart:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def reduce_step(inp: pl.Tensor[[1, 256], pl.FP32], out: pl.Out[pl.Tensor[[1, 256], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 256], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]) -> pl.Tensor[[1, 256], pl.FP32]:
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        local: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pl.tile.load(inp, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        data_1: pld.DistributedTensor[[1, 256], pl.FP32] = pl.tile.store(local, [0, 0], data)
        for peer in pl.range(nranks):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        acc: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pl.tile.load(data_1, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        for peer_1 in pl.range(nranks):
            if peer_1 != my_rank:
                peer_tile: pl.Tile[[1, 256], pl.FP32] = pld.tile.remote_load(data_1, peer_1, [0, 0], [1, 256])
                acc_1: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc, peer_tile)
        return pl.tile.store(acc_1, [0, 0], out)
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip_orch(self, inp: pl.Tensor[[1, 256], pl.FP32], out: pl.Out[pl.Tensor[[1, 256], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 256], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]) -> pl.Tensor[[1, 256], pl.FP32]:
        return self.reduce_step(inp, out, data, signal)
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def orchestrator(self, inputs: pl.Tensor[[NR, 1, 256], pl.FP32], outputs: pl.Out[pl.Tensor[[NR, 1, 256], pl.FP32]]) -> pl.Tensor[[NR, 1, 256], pl.FP32]:
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(1024)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(pld.system.world_size() * 4)
        for r in pl.range(pld.system.world_size()):
            data: pld.DistributedTensor[[1, 256], pl.FP32] = pld.tensor.window(data_buf, [1, 256], dtype=pl.FP32)
            signal: pld.DistributedTensor[[pld.system.world_size(), 1], pl.INT32] = pld.tensor.window(signal_buf, [pld.system.world_size(), 1], dtype=pl.INT32)
            self.chip_orch(pl.tensor.slice(inputs, [1, 1, 256], [r, 0, 0], [], [0]), pl.tensor.slice(outputs, [1, 1, 256], [r, 0, 0], [], [0]), data, signal, device=r)
        return outputs
# ==== CtrlFlowTransform: unchanged

# ==== ConvertToSSA
# pypto.program: Quickstart
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class Quickstart:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def reduce_step(inp: pl.Tensor[[1, 256], pl.FP32], out: pl.Out[pl.Tensor[[1, 256], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 256], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]) -> pl.Tensor[[1, 256], pl.FP32]:
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        local: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pl.tile.load(inp, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 256], pl.FP32] = pl.tile.store(local, [0, 0], data)
        for peer in pl.range(nranks):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        acc__ssa_v0: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        for peer_1, (acc__iter_v1,) in pl.range(nranks, init_values=(acc__ssa_v0,)):
            if peer_1 != my_rank:
                peer_tile: pl.Tile[[1, 256], pl.FP32] = pld.tile.remote_load(data__ssa_v0, peer_1, [0, 0], [1, 256])
                acc__ssa_v2: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc__iter_v1, peer_tile)
                acc__phi_v3: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pl.yield_(acc__ssa_v2)
            else:
                acc__phi_v3: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pl.yield_(acc__iter_v1)
            acc__rv_v4: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pl.yield_(acc__phi_v3)
        return pl.tile.store(acc__rv_v4, [0, 0], out)
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip_orch(self, inp: pl.Tensor[[1, 256], pl.FP32], out: pl.Out[pl.Tensor[[1, 256], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 256], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]) -> pl.Tensor[[1, 256], pl.FP32]:
        return self.reduce_step(inp, out, data, signal)
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def orchestrator(self, inputs: pl.Tensor[[NR, 1, 256], pl.FP32], outputs: pl.Out[pl.Tensor[[NR, 1, 256], pl.FP32]]) -> pl.Tensor[[NR, 1, 256], pl.FP32]:
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(1024)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(pld.system.world_size() * 4)
        for r in pl.range(pld.system.world_size()):
            data: pld.DistributedTensor[[1, 256], pl.FP32] = pld.tensor.window(data_buf, [1, 256], dtype=pl.FP32)
            signal: pld.DistributedTensor[[pld.system.world_size(), 1], pl.INT32] = pld.tensor.window(signal_buf, [pld.system.world_size(), 1], dtype=pl.INT32)
            self.chip_orch(pl.tensor.slice(inputs, [1, 1, 256], [r, 0, 0], [], [0]), pl.tensor.slice(outputs, [1, 1, 256], [r, 0, 0], [], [0]), data, signal, device=r)
        return outputs
# ==== FlattenCallExpr
# pypto.program: Quickstart
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class Quickstart:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def reduce_step(inp: pl.Tensor[[1, 256], pl.FP32], out: pl.Out[pl.Tensor[[1, 256], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 256], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]) -> pl.Tensor[[1, 256], pl.FP32]:
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        local: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pl.tile.load(inp, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 256], pl.FP32] = pl.tile.store(local, [0, 0], data)
        for peer in pl.range(nranks):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        acc__ssa_v0: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        for peer_1, (acc__iter_v1,) in pl.range(nranks, init_values=(acc__ssa_v0,)):
            if peer_1 != my_rank:
                peer_tile: pl.Tile[[1, 256], pl.FP32] = pld.tile.remote_load(data__ssa_v0, peer_1, [0, 0], [1, 256])
                acc__ssa_v2: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc__iter_v1, peer_tile)
                acc__phi_v3: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pl.yield_(acc__ssa_v2)
            else:
                acc__phi_v3: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pl.yield_(acc__iter_v1)
            acc__rv_v4: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pl.yield_(acc__phi_v3)
        t__tmp_v0: pl.Tensor[[1, 256], pl.FP32] = pl.tile.store(acc__rv_v4, [0, 0], out)
        return t__tmp_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip_orch(self, inp: pl.Tensor[[1, 256], pl.FP32], out: pl.Out[pl.Tensor[[1, 256], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 256], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]) -> pl.Tensor[[1, 256], pl.FP32]:
        t__tmp_v0: pl.Tensor[[1, 256], pl.FP32] = self.reduce_step(inp, out, data, signal)
        return t__tmp_v0
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def orchestrator(self, inputs: pl.Tensor[[NR, 1, 256], pl.FP32], outputs: pl.Out[pl.Tensor[[NR, 1, 256], pl.FP32]]) -> pl.Tensor[[NR, 1, 256], pl.FP32]:
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(1024)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 4)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v1):
            data: pld.DistributedTensor[[1, 256], pl.FP32] = pld.tensor.window(data_buf, [1, 256], dtype=pl.FP32)
            signal: pld.DistributedTensor[[pld.system.world_size(), 1], pl.INT32] = pld.tensor.window(signal_buf, [pld.system.world_size(), 1], dtype=pl.INT32)
            t__tmp_v2: pl.Tensor[[1, 256], pl.FP32] = pl.tensor.slice(inputs, [1, 1, 256], [r, 0, 0], [], [0])
            t__tmp_v3: pl.Tensor[[1, 256], pl.FP32] = pl.tensor.slice(outputs, [1, 1, 256], [r, 0, 0], [], [0])
            self.chip_orch(t__tmp_v2, t__tmp_v3, data, signal, device=r)
        return outputs
# ==== OutlineHierarchyScopes: unchanged

# ==== OutlineIncoreScopes: unchanged

# ==== ConvertTensorToTileOps: unchanged

# ==== LowerCompositeOps: unchanged

# ==== FlattenTileNdTo2D: unchanged

# ==== InferTileMemorySpace
# pypto.program: Quickstart
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class Quickstart:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def reduce_step(inp: pl.Tensor[[1, 256], pl.FP32], out: pl.Out[pl.Tensor[[1, 256], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 256], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]) -> pl.Tensor[[1, 256], pl.FP32]:
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        local: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pl.tile.load(inp, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 256], pl.FP32] = pl.tile.store(local, [0, 0], data)
        for peer in pl.range(nranks):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        acc__ssa_v0: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        for peer_1, (acc__iter_v1,) in pl.range(nranks, init_values=(acc__ssa_v0,)):
            if peer_1 != my_rank:
                peer_tile: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pld.tile.remote_load(data__ssa_v0, peer_1, [0, 0], [1, 256])
                acc__ssa_v2: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc__iter_v1, peer_tile)
                acc__phi_v3: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pl.yield_(acc__ssa_v2)
            else:
                acc__phi_v3: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pl.yield_(acc__iter_v1)
            acc__rv_v4: pl.Tile[[1, 256], pl.FP32, pl.Mem.Vec] = pl.yield_(acc__phi_v3)
        t__tmp_v0: pl.Tensor[[1, 256], pl.FP32] = pl.tile.store(acc__rv_v4, [0, 0], out)
        return t__tmp_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip_orch(self, inp: pl.Tensor[[1, 256], pl.FP32], out: pl.Out[pl.Tensor[[1, 256], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 256], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]) -> pl.Tensor[[1, 256], pl.FP32]:
        t__tmp_v0: pl.Tensor[[1, 256], pl.FP32] = self.reduce_step(inp, out, data, signal)
        return t__tmp_v0
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def orchestrator(self, inputs: pl.Tensor[[NR, 1, 256], pl.FP32], outputs: pl.Out[pl.Tensor[[NR, 1, 256], pl.FP32]]) -> pl.Tensor[[NR, 1, 256], pl.FP32]:
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(1024)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 4)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v1):
            data: pld.DistributedTensor[[1, 256], pl.FP32] = pld.tensor.window(data_buf, [1, 256], dtype=pl.FP32)
            signal: pld.DistributedTensor[[pld.system.world_size(), 1], pl.INT32] = pld.tensor.window(signal_buf, [pld.system.world_size(), 1], dtype=pl.INT32)
            t__tmp_v2: pl.Tensor[[1, 256], pl.FP32] = pl.tensor.slice(inputs, [1, 1, 256], [r, 0, 0], [], [0])
            t__tmp_v3: pl.Tensor[[1, 256], pl.FP32] = pl.tensor.slice(outputs, [1, 1, 256], [r, 0, 0], [], [0])
            self.chip_orch(t__tmp_v2, t__tmp_v3, data, signal, device=r)
        return outputs
# ==== InitMemRef
# pypto.program: Quickstart
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class Quickstart:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def reduce_step(inp: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_0", 0, 1024)], out: pl.Out[pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)]], data: pl.InOut[pld.DistributedTensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_2", 0, 1024)]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)]]) -> pl.Tensor[[1, 256], pl.FP32]:
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        local: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_4, 0, 1024), pl.Mem.Vec] = pl.tile.load(inp, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_2", 0, 1024)] = pl.tile.store(local, [0, 0], data)
        for peer in pl.range(nranks):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        acc__ssa_v0: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_5, 0, 1024), pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        for peer_1, (acc__iter_v1,) in pl.range(nranks, init_values=(acc__ssa_v0,)):
            if peer_1 != my_rank:
                peer_tile: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_6, 0, 1024), pl.Mem.Vec] = pld.tile.remote_load(data__ssa_v0, peer_1, [0, 0], [1, 256])
                acc__ssa_v2: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_7, 0, 1024), pl.Mem.Vec] = pl.tile.add(acc__iter_v1, peer_tile)
                acc__phi_v3: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_7, 0, 1024), pl.Mem.Vec] = pl.yield_(acc__ssa_v2)
            else:
                acc__phi_v3: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_7, 0, 1024), pl.Mem.Vec] = pl.yield_(acc__iter_v1)
            acc__rv_v4: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_5, 0, 1024), pl.Mem.Vec] = pl.yield_(acc__phi_v3)
        t__tmp_v0: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)] = pl.tile.store(acc__rv_v4, [0, 0], out)
        return t__tmp_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip_orch(self, inp: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_0", 0, 1024)], out: pl.Out[pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)]], data: pl.InOut[pld.DistributedTensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_2", 0, 1024)]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)]]) -> pl.Tensor[[1, 256], pl.FP32]:
        t__tmp_v0: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_4", 0, 1024)] = self.reduce_step(inp, out, data, signal)
        return t__tmp_v0
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def orchestrator(self, inputs: pl.Tensor[[NR, 1, 256], pl.FP32, pl.MemRef("mem_ddr_0", 0, 0)], outputs: pl.Out[pl.Tensor[[NR, 1, 256], pl.FP32, pl.MemRef("mem_ddr_1", 0, 0)]]) -> pl.Tensor[[NR, 1, 256], pl.FP32]:
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(1024)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 4)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v1):
            data: pld.DistributedTensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_2", 0, 1024)] = pld.tensor.window(data_buf, [1, 256], dtype=pl.FP32)
            signal: pld.DistributedTensor[[pld.system.world_size(), 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)] = pld.tensor.window(signal_buf, [pld.system.world_size(), 1], dtype=pl.INT32)
            t__tmp_v2: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_0", r * 256 * 4, 0)] = pl.tensor.slice(inputs, [1, 1, 256], [r, 0, 0], [], [0])
            t__tmp_v3: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", r * 256 * 4, 0)] = pl.tensor.slice(outputs, [1, 1, 256], [r, 0, 0], [], [0])
            self.chip_orch(t__tmp_v2, t__tmp_v3, data, signal, device=r)
        return outputs
# ==== AllocateMemoryAddr
# pypto.program: Quickstart
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class Quickstart:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def reduce_step(inp: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_0", 0, 1024)], out: pl.Out[pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)]], data: pl.InOut[pld.DistributedTensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_2", 0, 1024)]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)]]) -> pl.Tensor[[1, 256], pl.FP32]:
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        local: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_4, 0, 1024), pl.Mem.Vec] = pl.tile.load(inp, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_2", 0, 1024)] = pl.tile.store(local, [0, 0], data)
        for peer in pl.range(nranks):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        acc__ssa_v0: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_5, 1024, 1024), pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        for peer_1, (acc__iter_v1,) in pl.range(nranks, init_values=(acc__ssa_v0,)):
            if peer_1 != my_rank:
                peer_tile: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_6, 2048, 1024), pl.Mem.Vec] = pld.tile.remote_load(data__ssa_v0, peer_1, [0, 0], [1, 256])
                acc__ssa_v2: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_7, 3072, 1024), pl.Mem.Vec] = pl.tile.add(acc__iter_v1, peer_tile)
                acc__phi_v3: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_7, 3072, 1024), pl.Mem.Vec] = pl.yield_(acc__ssa_v2)
            else:
                acc__phi_v3: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_7, 3072, 1024), pl.Mem.Vec] = pl.yield_(acc__iter_v1)
            acc__rv_v4: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_5, 1024, 1024), pl.Mem.Vec] = pl.yield_(acc__phi_v3)
        t__tmp_v0: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)] = pl.tile.store(acc__rv_v4, [0, 0], out)
        return t__tmp_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip_orch(self, inp: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_0", 0, 1024)], out: pl.Out[pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)]], data: pl.InOut[pld.DistributedTensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_2", 0, 1024)]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)]]) -> pl.Tensor[[1, 256], pl.FP32]:
        t__tmp_v0: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_4", 0, 1024)] = self.reduce_step(inp, out, data, signal)
        return t__tmp_v0
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def orchestrator(self, inputs: pl.Tensor[[NR, 1, 256], pl.FP32, pl.MemRef("mem_ddr_0", 0, 0)], outputs: pl.Out[pl.Tensor[[NR, 1, 256], pl.FP32, pl.MemRef("mem_ddr_1", 0, 0)]]) -> pl.Tensor[[NR, 1, 256], pl.FP32]:
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(1024)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 4)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v1):
            data: pld.DistributedTensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_2", 0, 1024)] = pld.tensor.window(data_buf, [1, 256], dtype=pl.FP32)
            signal: pld.DistributedTensor[[pld.system.world_size(), 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)] = pld.tensor.window(signal_buf, [pld.system.world_size(), 1], dtype=pl.INT32)
            t__tmp_v2: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_0", r * 256 * 4, 0)] = pl.tensor.slice(inputs, [1, 1, 256], [r, 0, 0], [], [0])
            t__tmp_v3: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", r * 256 * 4, 0)] = pl.tensor.slice(outputs, [1, 1, 256], [r, 0, 0], [], [0])
            self.chip_orch(t__tmp_v2, t__tmp_v3, data, signal, device=r)
        return outputs
# ==== SynthesizeAllReduceSignals: unchanged

# ==== MaterializeCommDomainScopes
# pypto.program: Quickstart
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class Quickstart:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def reduce_step(inp: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_0", 0, 1024)], out: pl.Out[pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)]], data: pl.InOut[pld.DistributedTensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_2", 0, 1024)]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)]]) -> pl.Tensor[[1, 256], pl.FP32]:
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        local: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_4, 0, 1024), pl.Mem.Vec] = pl.tile.load(inp, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_2", 0, 1024)] = pl.tile.store(local, [0, 0], data)
        for peer in pl.range(nranks):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        acc__ssa_v0: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_5, 1024, 1024), pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        for peer_1, (acc__iter_v1,) in pl.range(nranks, init_values=(acc__ssa_v0,)):
            if peer_1 != my_rank:
                peer_tile: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_6, 2048, 1024), pl.Mem.Vec] = pld.tile.remote_load(data__ssa_v0, peer_1, [0, 0], [1, 256])
                acc__ssa_v2: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_7, 3072, 1024), pl.Mem.Vec] = pl.tile.add(acc__iter_v1, peer_tile)
                acc__phi_v3: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_7, 3072, 1024), pl.Mem.Vec] = pl.yield_(acc__ssa_v2)
            else:
                acc__phi_v3: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_7, 3072, 1024), pl.Mem.Vec] = pl.yield_(acc__iter_v1)
            acc__rv_v4: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_5, 1024, 1024), pl.Mem.Vec] = pl.yield_(acc__phi_v3)
        t__tmp_v0: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)] = pl.tile.store(acc__rv_v4, [0, 0], out)
        return t__tmp_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip_orch(self, inp: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_0", 0, 1024)], out: pl.Out[pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)]], data: pl.InOut[pld.DistributedTensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_2", 0, 1024)]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)]]) -> pl.Tensor[[1, 256], pl.FP32]:
        t__tmp_v0: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_4", 0, 1024)] = self.reduce_step(inp, out, data, signal)
        return t__tmp_v0
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def orchestrator(self, inputs: pl.Tensor[[NR, 1, 256], pl.FP32, pl.MemRef("mem_ddr_0", 0, 0)], outputs: pl.Out[pl.Tensor[[NR, 1, 256], pl.FP32, pl.MemRef("mem_ddr_1", 0, 0)]]) -> pl.Tensor[[NR, 1, 256], pl.FP32]:
        # pld.comm_domain: devices=all, slots=[data_buf, signal_buf]
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(1024)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 4)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v1):
            data: pld.DistributedTensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_2", 0, 1024)] = pld.tensor.window(data_buf, [1, 256], dtype=pl.FP32)
            signal: pld.DistributedTensor[[pld.system.world_size(), 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)] = pld.tensor.window(signal_buf, [pld.system.world_size(), 1], dtype=pl.INT32)
            t__tmp_v2: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_0", r * 256 * 4, 0)] = pl.tensor.slice(inputs, [1, 1, 256], [r, 0, 0], [], [0])
            t__tmp_v3: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", r * 256 * 4, 0)] = pl.tensor.slice(outputs, [1, 1, 256], [r, 0, 0], [], [0])
            self.chip_orch(t__tmp_v2, t__tmp_v3, data, signal, device=r)
        return outputs
# ==== LowerHostTensorCollectives: unchanged

# ==== MaterializeDistTensorCtx
# pypto.program: Quickstart
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class Quickstart:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def reduce_step(inp: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_0", 0, 1024)], out: pl.Out[pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)]], data: pl.InOut[pld.DistributedTensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_2", 0, 1024)]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)]], data_ctx: pld.CommCtx, signal_ctx: pld.CommCtx) -> pl.Tensor[[1, 256], pl.FP32]:
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        ctx: pld.CommCtx = data_ctx
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        local: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_4, 0, 1024), pl.Mem.Vec] = pl.tile.load(inp, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_2", 0, 1024)] = pl.tile.store(local, [0, 0], data)
        for peer in pl.range(nranks):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        acc__ssa_v0: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_5, 1024, 1024), pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        for peer_1, (acc__iter_v1,) in pl.range(nranks, init_values=(acc__ssa_v0,)):
            if peer_1 != my_rank:
                peer_tile: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_6, 2048, 1024), pl.Mem.Vec] = pld.tile.remote_load(data__ssa_v0, peer_1, [0, 0], [1, 256])
                acc__ssa_v2: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_7, 3072, 1024), pl.Mem.Vec] = pl.tile.add(acc__iter_v1, peer_tile)
                acc__phi_v3: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_7, 3072, 1024), pl.Mem.Vec] = pl.yield_(acc__ssa_v2)
            else:
                acc__phi_v3: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_7, 3072, 1024), pl.Mem.Vec] = pl.yield_(acc__iter_v1)
            acc__rv_v4: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_5, 1024, 1024), pl.Mem.Vec] = pl.yield_(acc__phi_v3)
        t__tmp_v0: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)] = pl.tile.store(acc__rv_v4, [0, 0], out)
        return t__tmp_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip_orch(self, inp: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_0", 0, 1024)], out: pl.Out[pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)]], data: pl.InOut[pld.DistributedTensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_2", 0, 1024)]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)]], data_ctx: pld.CommCtx, signal_ctx: pld.CommCtx) -> pl.Tensor[[1, 256], pl.FP32]:
        t__tmp_v0: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_4", 0, 1024)] = self.reduce_step(inp, out, data, signal, data_ctx, signal_ctx)
        return t__tmp_v0
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def orchestrator(self, inputs: pl.Tensor[[NR, 1, 256], pl.FP32, pl.MemRef("mem_ddr_0", 0, 0)], outputs: pl.Out[pl.Tensor[[NR, 1, 256], pl.FP32, pl.MemRef("mem_ddr_1", 0, 0)]]) -> pl.Tensor[[NR, 1, 256], pl.FP32]:
        # pld.comm_domain: devices=all, slots=[data_buf, signal_buf]
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(1024)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 4)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v1):
            data: pld.DistributedTensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_2", 0, 1024)] = pld.tensor.window(data_buf, [1, 256], dtype=pl.FP32)
            signal: pld.DistributedTensor[[pld.system.world_size(), 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)] = pld.tensor.window(signal_buf, [pld.system.world_size(), 1], dtype=pl.INT32)
            t__tmp_v2: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_0", r * 256 * 4, 0)] = pl.tensor.slice(inputs, [1, 1, 256], [r, 0, 0], [], [0])
            t__tmp_v3: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", r * 256 * 4, 0)] = pl.tensor.slice(outputs, [1, 1, 256], [r, 0, 0], [], [0])
            data_ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
            signal_ctx: pld.CommCtx = pld.system.get_comm_ctx(signal)
            self.chip_orch(t__tmp_v2, t__tmp_v3, data, signal, data_ctx, signal_ctx, device=r)
        return outputs
# ==== InsertCommFence
# pypto.program: Quickstart
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")

@pl.program
class Quickstart:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def reduce_step(inp: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_0", 0, 1024)], out: pl.Out[pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)]], data: pl.InOut[pld.DistributedTensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_2", 0, 1024)]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)]], data_ctx: pld.CommCtx, signal_ctx: pld.CommCtx) -> pl.Tensor[[1, 256], pl.FP32]:
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        ctx: pld.CommCtx = data_ctx
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        local: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_4, 0, 1024), pl.Mem.Vec] = pl.tile.load(inp, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_2", 0, 1024)] = pl.tile.store(local, [0, 0], data)
        pl.system.cacheinvalid(data, [1, 256], [0, 0])
        pl.system.fence()
        for peer in pl.range(nranks):
            if peer != my_rank:
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        for src in pl.range(nranks):
            if src != my_rank:
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
                pl.system.cacheinvalid()
        acc__ssa_v0: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_5, 1024, 1024), pl.Mem.Vec] = pl.tile.load(data__ssa_v0, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        for peer_1, (acc__iter_v1,) in pl.range(nranks, init_values=(acc__ssa_v0,)):
            if peer_1 != my_rank:
                peer_tile: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_6, 2048, 1024), pl.Mem.Vec] = pld.tile.remote_load(data__ssa_v0, peer_1, [0, 0], [1, 256])
                acc__ssa_v2: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_7, 3072, 1024), pl.Mem.Vec] = pl.tile.add(acc__iter_v1, peer_tile)
                acc__phi_v3: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_7, 3072, 1024), pl.Mem.Vec] = pl.yield_(acc__ssa_v2)
            else:
                acc__phi_v3: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_7, 3072, 1024), pl.Mem.Vec] = pl.yield_(acc__iter_v1)
            acc__rv_v4: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_5, 1024, 1024), pl.Mem.Vec] = pl.yield_(acc__phi_v3)
        t__tmp_v0: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)] = pl.tile.store(acc__rv_v4, [0, 0], out)
        return t__tmp_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip_orch(self, inp: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_0", 0, 1024)], out: pl.Out[pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", 0, 1024)]], data: pl.InOut[pld.DistributedTensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_2", 0, 1024)]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)]], data_ctx: pld.CommCtx, signal_ctx: pld.CommCtx) -> pl.Tensor[[1, 256], pl.FP32]:
        t__tmp_v0: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_4", 0, 1024)] = self.reduce_step(inp, out, data, signal, data_ctx, signal_ctx)
        return t__tmp_v0
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def orchestrator(self, inputs: pl.Tensor[[NR, 1, 256], pl.FP32, pl.MemRef("mem_ddr_0", 0, 0)], outputs: pl.Out[pl.Tensor[[NR, 1, 256], pl.FP32, pl.MemRef("mem_ddr_1", 0, 0)]]) -> pl.Tensor[[NR, 1, 256], pl.FP32]:
        # pld.comm_domain: devices=all, slots=[data_buf, signal_buf]
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(1024)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(t__tmp_v0 * 4)
        t__tmp_v1: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v1):
            data: pld.DistributedTensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_2", 0, 1024)] = pld.tensor.window(data_buf, [1, 256], dtype=pl.FP32)
            signal: pld.DistributedTensor[[pld.system.world_size(), 1], pl.INT32, pl.MemRef("mem_ddr_3", 0, 0)] = pld.tensor.window(signal_buf, [pld.system.world_size(), 1], dtype=pl.INT32)
            t__tmp_v2: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_0", r * 256 * 4, 0)] = pl.tensor.slice(inputs, [1, 1, 256], [r, 0, 0], [], [0])
            t__tmp_v3: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", r * 256 * 4, 0)] = pl.tensor.slice(outputs, [1, 1, 256], [r, 0, 0], [], [0])
            data_ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
            signal_ctx: pld.CommCtx = pld.system.get_comm_ctx(signal)
            self.chip_orch(t__tmp_v2, t__tmp_v3, data, signal, data_ctx, signal_ctx, device=r)
        return outputs
