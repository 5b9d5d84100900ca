# pypto.program: HostAllReduceSubsets
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class HostAllReduceSubsets:
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
    def host(self, x: pl.Tensor[[4, 1, 16], pl.FP32, pl.MemRef("mem_ddr_0", 0, 256)], y: pl.Out[pl.Tensor[[4, 1, 16], pl.FP32, pl.MemRef("mem_ddr_1", 0, 256)]]):
        # pld.comm_domain: devices=[0, 1], slots=[__allreduce_signal_buf_0, lo_buf]
        # pld.comm_domain: devices=[2, 3], slots=[__allreduce_signal_buf_1, hi_buf]
        __allreduce_signal_world_size_0: pl.Scalar[pl.INT64] = pld.system.world_size()
        __allreduce_signal_buf_0: pl.Ptr = pld.tensor.alloc_window_buffer(__allreduce_signal_world_size_0 * pl.const(1, pl.INT64) * pl.const(4, pl.INT64))
        __allreduce_signal_0: pld.DistributedTensor[[__allreduce_signal_world_size_0, 1], pl.INT32] = pld.tensor.window(__allreduce_signal_buf_0, [__allreduce_signal_world_size_0, 1], dtype=pl.INT32)
        __allreduce_signal_world_size_1: pl.Scalar[pl.INT64] = pld.system.world_size()
        __allreduce_signal_buf_1: pl.Ptr = pld.tensor.alloc_window_buffer(__allreduce_signal_world_size_1 * pl.const(1, pl.INT64) * pl.const(4, pl.INT64))
        __allreduce_signal_1: pld.DistributedTensor[[__allreduce_signal_world_size_1, 1], pl.INT32] = pld.tensor.window(__allreduce_signal_buf_1, [__allreduce_signal_world_size_1, 1], dtype=pl.INT32)
        lo_buf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
        lo__ssa_v0: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_2", 0, 64)] = pld.tensor.window(lo_buf, [1, 16], dtype=pl.FP32)
        for r in pl.range(2):
            t__tmp_v0: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", r * 16 * 4, 64)] = pl.tensor.slice(x, [1, 1, 16], [r, 0, 0], [], [0])
            lo__ssa_v0_ctx: pld.CommCtx = pld.system.get_comm_ctx(lo__ssa_v0)
            self.stage(t__tmp_v0, lo__ssa_v0, lo__ssa_v0_ctx, device=r)
        builtin.tensor.allreduce(lo__ssa_v0, __allreduce_signal_0, op=0, dtype=pl.FP32, core_num=1, device=0)
        builtin.tensor.allreduce(lo__ssa_v0, __allreduce_signal_0, op=0, dtype=pl.FP32, core_num=1, device=1)
        lo__ssa_v1: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_3", 0, 64)] = lo__ssa_v0
        for r_1 in pl.range(2):
            t__tmp_v1: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", r_1 * 16 * 4, 64)] = pl.tensor.slice(y, [1, 1, 16], [r_1, 0, 0], [], [0])
            lo__ssa_v1_ctx: pld.CommCtx = pld.system.get_comm_ctx(lo__ssa_v1)
            self.read_back(lo__ssa_v1, t__tmp_v1, lo__ssa_v1_ctx, device=r_1)
        hi_buf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
        hi__ssa_v0: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_4", 0, 64)] = pld.tensor.window(hi_buf, [1, 16], dtype=pl.FP32)
        for r_2 in pl.range(2, 4):
            t__tmp_v2: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_0", r_2 * 16 * 4, 64)] = pl.tensor.slice(x, [1, 1, 16], [r_2, 0, 0], [], [0])
            hi__ssa_v0_ctx: pld.CommCtx = pld.system.get_comm_ctx(hi__ssa_v0)
            self.stage(t__tmp_v2, hi__ssa_v0, hi__ssa_v0_ctx, device=r_2)
        builtin.tensor.allreduce(hi__ssa_v0, __allreduce_signal_1, op=0, dtype=pl.FP32, core_num=1, device=2)
        builtin.tensor.allreduce(hi__ssa_v0, __allreduce_signal_1, op=0, dtype=pl.FP32, core_num=1, device=3)
        hi__ssa_v1: pld.DistributedTensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_5", 0, 64)] = hi__ssa_v0
        for r_3 in pl.range(2, 4):
            t__tmp_v3: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", r_3 * 16 * 4, 64)] = pl.tensor.slice(y, [1, 1, 16], [r_3, 0, 0], [], [0])
            hi__ssa_v1_ctx: pld.CommCtx = pld.system.get_comm_ctx(hi__ssa_v1)
            self.read_back(hi__ssa_v1, t__tmp_v3, hi__ssa_v1_ctx, device=r_3)