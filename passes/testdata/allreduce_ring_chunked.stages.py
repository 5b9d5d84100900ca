# ==== Input
# pypto.program: RingAllReduce
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class RingAllReduce:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 24576], pl.FP32], y: pl.Out[pl.Tensor[[1, 24576], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 24576], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[4, 3], pl.INT32]]):
        staged: pl.Tile[[1, 24576], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 24576], [1, 24576], target_memory=pl.Mem.Vec)
        data_1: pld.DistributedTensor[[1, 24576], pl.FP32] = pl.tile.store(staged, [0, 0], data)
        data_2: pld.DistributedTensor[[1, 24576], pl.FP32] = pld.tensor.allreduce(data_1, signal, op=0, mode='ring', core_num=1)
        out: pl.Tile[[1, 24576], pl.FP32, pl.Mem.Vec] = pl.tile.load(data_2, [0, 0], [1, 24576], [1, 24576], target_memory=pl.Mem.Vec)
        y_1: pl.Tensor[[1, 24576], pl.FP32] = pl.tile.store(out, [0, 0], y)
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[3, 1, 24576], pl.FP32], y: pl.Out[pl.Tensor[[3, 1, 24576], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(98304)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(48)
        for r in pl.range(pld.system.world_size()):
            data: pld.DistributedTensor[[1, 24576], pl.FP32] = pld.tensor.window(data_buf, [1, 24576], dtype=pl.FP32)
            signal: pld.DistributedTensor[[4, 3], pl.INT32] = pld.tensor.window(signal_buf, [4, 3], dtype=pl.INT32)
            self.kernel(pl.tensor.slice(x, [1, 1, 24576], [r, 0, 0], [], [0]), pl.tensor.slice(y, [1, 1, 24576], [r, 0, 0], [], [0]), data, signal, device=r)
# ==== CtrlFlowTransform: unchanged

# ==== ConvertToSSA
# pypto.program: RingAllReduce
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class RingAllReduce:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 24576], pl.FP32], y: pl.Out[pl.Tensor[[1, 24576], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 24576], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[4, 3], pl.INT32]]):
        staged: pl.Tile[[1, 24576], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 24576], [1, 24576], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 24576], pl.FP32] = pl.tile.store(staged, [0, 0], data)
        data__ssa_v1: pld.DistributedTensor[[1, 24576], pl.FP32] = pld.tensor.allreduce(data__ssa_v0, signal, op=0, mode='ring', core_num=1)
        out: pl.Tile[[1, 24576], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [1, 24576], [1, 24576], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 24576], pl.FP32] = pl.tile.store(out, [0, 0], y)
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[3, 1, 24576], pl.FP32], y: pl.Out[pl.Tensor[[3, 1, 24576], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(98304)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(48)
        for r in pl.range(pld.system.world_size()):
            data: pld.DistributedTensor[[1, 24576], pl.FP32] = pld.tensor.window(data_buf, [1, 24576], dtype=pl.FP32)
            signal: pld.DistributedTensor[[4, 3], pl.INT32] = pld.tensor.window(signal_buf, [4, 3], dtype=pl.INT32)
            self.kernel(pl.tensor.slice(x, [1, 1, 24576], [r, 0, 0], [], [0]), pl.tensor.slice(y, [1, 1, 24576], [r, 0, 0], [], [0]), data, signal, device=r)
# ==== FlattenCallExpr
# pypto.program: RingAllReduce
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class RingAllReduce:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 24576], pl.FP32], y: pl.Out[pl.Tensor[[1, 24576], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 24576], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[4, 3], pl.INT32]]):
        staged: pl.Tile[[1, 24576], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 24576], [1, 24576], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 24576], pl.FP32] = pl.tile.store(staged, [0, 0], data)
        data__ssa_v1: pld.DistributedTensor[[1, 24576], pl.FP32] = pld.tensor.allreduce(data__ssa_v0, signal, op=0, mode='ring', core_num=1)
        out: pl.Tile[[1, 24576], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [1, 24576], [1, 24576], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 24576], pl.FP32] = pl.tile.store(out, [0, 0], y)
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[3, 1, 24576], pl.FP32], y: pl.Out[pl.Tensor[[3, 1, 24576], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(98304)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(48)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            data: pld.DistributedTensor[[1, 24576], pl.FP32] = pld.tensor.window(data_buf, [1, 24576], dtype=pl.FP32)
            signal: pld.DistributedTensor[[4, 3], pl.INT32] = pld.tensor.window(signal_buf, [4, 3], dtype=pl.INT32)
            t__tmp_v1: pl.Tensor[[1, 24576], pl.FP32] = pl.tensor.slice(x, [1, 1, 24576], [r, 0, 0], [], [0])
            t__tmp_v2: pl.Tensor[[1, 24576], pl.FP32] = pl.tensor.slice(y, [1, 1, 24576], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v1, t__tmp_v2, data, signal, device=r)
# ==== OutlineHierarchyScopes: unchanged

# ==== OutlineIncoreScopes: unchanged

# ==== ConvertTensorToTileOps
# pypto.program: RingAllReduce
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class RingAllReduce:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 24576], pl.FP32], y: pl.Out[pl.Tensor[[1, 24576], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 24576], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[4, 3], pl.INT32]]):
        staged: pl.Tile[[1, 24576], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 24576], [1, 24576], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 24576], pl.FP32] = pl.tile.store(staged, [0, 0], data)
        data__ssa_v1: pld.DistributedTensor[[1, 24576], pl.FP32] = pld.tensor.allreduce(data__ssa_v0, signal, op=0, mode='ring', core_num=1)
        out: pl.Tile[[1, 24576], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [1, 24576], [1, 24576], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 24576], pl.FP32] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[3, 1, 24576], pl.FP32], y: pl.Out[pl.Tensor[[3, 1, 24576], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(98304)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(48)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            data: pld.DistributedTensor[[1, 24576], pl.FP32] = pld.tensor.window(data_buf, [1, 24576], dtype=pl.FP32)
            signal: pld.DistributedTensor[[4, 3], pl.INT32] = pld.tensor.window(signal_buf, [4, 3], dtype=pl.INT32)
            t__tmp_v1: pl.Tensor[[1, 24576], pl.FP32] = pl.tensor.slice(x, [1, 1, 24576], [r, 0, 0], [], [0])
            t__tmp_v2: pl.Tensor[[1, 24576], pl.FP32] = pl.tensor.slice(y, [1, 1, 24576], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v1, t__tmp_v2, data, signal, device=r)
# ==== LowerCompositeOps
# pypto.program: RingAllReduce
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class RingAllReduce:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 24576], pl.FP32], y: pl.Out[pl.Tensor[[1, 24576], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 24576], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[4, 3], pl.INT32]]):
        staged: pl.Tile[[1, 24576], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 24576], [1, 24576], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 24576], pl.FP32] = pl.tile.store(staged, [0, 0], data)
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data__ssa_v0)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        my_rank_idx: pl.Scalar[pl.INDEX] = pl.cast(my_rank, pl.INDEX)
        ring_put_stage: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec] = pl.tile.create([1, 4096], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        ring_left: pl.Scalar[pl.INDEX] = (my_rank_idx - 1 + nranks_idx) % nranks_idx
        ring_right: pl.Scalar[pl.INDEX] = (my_rank_idx + 1) % nranks_idx
        nr_minus_one: pl.Scalar[pl.INDEX] = nranks_idx - 1
        for rs_step in pl.range(nr_minus_one):
            step: pl.Scalar[pl.INDEX] = rs_step + 1
            recv_idx: pl.Scalar[pl.INDEX] = (my_rank_idx - step - 1 + nranks_idx) % nranks_idx
            send_idx: pl.Scalar[pl.INDEX] = (my_rank_idx - step + nranks_idx) % nranks_idx
            rs_recv_segment_begin: pl.Scalar[pl.INDEX] = recv_idx * 24576 // 3
            rs_recv_segment_end: pl.Scalar[pl.INDEX] = (recv_idx + 1) * 24576 // 3
            rs_recv_segment_cols: pl.Scalar[pl.INDEX] = rs_recv_segment_end - rs_recv_segment_begin
            rs_send_segment_begin: pl.Scalar[pl.INDEX] = send_idx * 24576 // 3
            rs_send_segment_end: pl.Scalar[pl.INDEX] = (send_idx + 1) * 24576 // 3
            rs_send_segment_cols: pl.Scalar[pl.INDEX] = rs_send_segment_end - rs_send_segment_begin
            for rs_col in pl.range(0, 8192, 4096):
                if rs_col < rs_recv_segment_cols:
                    acc_rs_own_loaded: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, rs_recv_segment_begin + rs_col], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    acc_rs_own: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(acc_rs_own_loaded, pad_value=pl.PadValue.zero)
                    acc_own: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_own)
                else:
                    acc_rs_own_placeholder_loaded: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, 0], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    acc_rs_own_placeholder: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(acc_rs_own_placeholder_loaded, pad_value=pl.PadValue.zero)
                    acc_own: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_own_placeholder)
                rs_ready_epoch: pl.Scalar[pl.INT32] = pl.cast(rs_col // 4096 * 2 + 1, pl.INT32)
                pld.system.notify(signal, ring_right, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [rs_step, ring_left], rs_ready_epoch, cmp=1)
                if ring_left != ring_right:
                    pld.system.wait(signal, [rs_step, ring_right], rs_ready_epoch, cmp=1)
                if rs_col < rs_send_segment_cols:
                    rs_stage_valid: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.min(pl.const(4096, pl.INDEX), rs_send_segment_cols - rs_col)])] = pl.tile.set_validshape(ring_put_stage, 1, pl.min(4096, rs_send_segment_cols - rs_col))
                    pld.tile.put(data__ssa_v0, ring_right, data__ssa_v0, rs_stage_valid, [0, rs_send_segment_begin + rs_col], [0, rs_send_segment_begin + rs_col], [1, pl.min(4096, rs_send_segment_cols - rs_col)], atomic=pl.AtomicType.None_)
                rs_read_epoch: pl.Scalar[pl.INT32] = pl.cast(rs_col // 4096 * 2 + 2, pl.INT32)
                pld.system.notify(signal, ring_right, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [rs_step, ring_left], rs_read_epoch, cmp=1)
                if ring_left != ring_right:
                    pld.system.wait(signal, [rs_step, ring_right], rs_read_epoch, cmp=1)
                if rs_col < rs_recv_segment_cols:
                    recv_rs_loaded: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, rs_recv_segment_begin + rs_col], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    recv_rs: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(recv_rs_loaded, pad_value=pl.PadValue.zero)
                    acc_rs_next: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.add(acc_own, recv_rs)
                    acc_full: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_next)
                else:
                    acc_rs_placeholder_loaded: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, 0], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    acc_rs_placeholder: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(acc_rs_placeholder_loaded, pad_value=pl.PadValue.zero)
                    acc_full: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_placeholder)
                if rs_col < rs_recv_segment_cols:
                    acc_rs_valid: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.const(24576, pl.INDEX) - pl.max(pl.const(0, pl.INDEX), pl.const(24576, pl.INDEX) - (pl.const(24576, pl.INDEX) - pl.max(pl.const(0, pl.INDEX), pl.const(24576, pl.INDEX) - (rs_recv_segment_begin + rs_col)) + pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))) - (pl.const(24576, pl.INDEX) - pl.max(pl.const(0, pl.INDEX), pl.const(24576, pl.INDEX) - (rs_recv_segment_begin + rs_col)))])] = pl.tile.set_validshape(acc_full, 1, 24576 - pl.max(0, 24576 - (24576 - pl.max(0, 24576 - (rs_recv_segment_begin + rs_col)) + pl.min(4096, rs_recv_segment_cols - rs_col))) - (24576 - pl.max(0, 24576 - (rs_recv_segment_begin + rs_col))))
                    pl.tile.store(acc_rs_valid, [0, 24576 - pl.max(0, 24576 - (rs_recv_segment_begin + rs_col))], data__ssa_v0)
        for ag_step in pl.range(nr_minus_one):
            ag_step_val: pl.Scalar[pl.INDEX] = ag_step + 1
            ag_round: pl.Scalar[pl.INDEX] = ag_step + nr_minus_one
            ag_send_idx: pl.Scalar[pl.INDEX] = (my_rank_idx - ag_step_val + 1 + nranks_idx) % nranks_idx
            ag_segment_begin: pl.Scalar[pl.INDEX] = ag_send_idx * 24576 // 3
            ag_segment_end: pl.Scalar[pl.INDEX] = (ag_send_idx + 1) * 24576 // 3
            ag_segment_cols: pl.Scalar[pl.INDEX] = ag_segment_end - ag_segment_begin
            for ag_col in pl.range(0, 8192, 4096):
                ag_ready_epoch: pl.Scalar[pl.INT32] = pl.cast(ag_col // 4096 * 2 + 1, pl.INT32)
                pld.system.notify(signal, ring_right, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [ag_round, ring_left], ag_ready_epoch, cmp=1)
                if ring_left != ring_right:
                    pld.system.wait(signal, [ag_round, ring_right], ag_ready_epoch, cmp=1)
                if ag_col < ag_segment_cols:
                    ag_stage_valid: pl.Tile[[1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.min(pl.const(4096, pl.INDEX), ag_segment_cols - ag_col)])] = pl.tile.set_validshape(ring_put_stage, 1, pl.min(4096, ag_segment_cols - ag_col))
                    pld.tile.put(data__ssa_v0, ring_right, data__ssa_v0, ag_stage_valid, [0, ag_segment_begin + ag_col], [0, ag_segment_begin + ag_col], [1, pl.min(4096, ag_segment_cols - ag_col)], atomic=pl.AtomicType.None_)
                ag_read_epoch: pl.Scalar[pl.INT32] = pl.cast(ag_col // 4096 * 2 + 2, pl.INT32)
                pld.system.notify(signal, ring_right, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [ag_round, ring_left], ag_read_epoch, cmp=1)
                if ring_left != ring_right:
                    pld.system.wait(signal, [ag_round, ring_right], ag_read_epoch, cmp=1)
        ring_reset_total: pl.Scalar[pl.INT32] = pl.const(4, pl.INT32)
        if ring_left != my_rank_idx:
            for reset_row in pl.range(4):
                pld.system.notify(signal, my_rank, [reset_row, ring_left], -ring_reset_total, op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, my_rank, [reset_row, ring_right], -ring_reset_total, op=0)
        data__ssa_v1: pld.DistributedTensor[[1, 24576], pl.FP32] = data__ssa_v0
        out: pl.Tile[[1, 24576], pl.FP32, pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [1, 24576], [1, 24576], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 24576], pl.FP32] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[3, 1, 24576], pl.FP32], y: pl.Out[pl.Tensor[[3, 1, 24576], pl.FP32]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(98304)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(48)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            data: pld.DistributedTensor[[1, 24576], pl.FP32] = pld.tensor.window(data_buf, [1, 24576], dtype=pl.FP32)
            signal: pld.DistributedTensor[[4, 3], pl.INT32] = pld.tensor.window(signal_buf, [4, 3], dtype=pl.INT32)
            t__tmp_v1: pl.Tensor[[1, 24576], pl.FP32] = pl.tensor.slice(x, [1, 1, 24576], [r, 0, 0], [], [0])
            t__tmp_v2: pl.Tensor[[1, 24576], pl.FP32] = pl.tensor.slice(y, [1, 1, 24576], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v1, t__tmp_v2, data, signal, device=r)
# ==== FlattenTileNdTo2D: unchanged

# ==== InferTileMemorySpace: unchanged

# ==== InitMemRef
# pypto.program: RingAllReduce
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class RingAllReduce:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_0", 0, 98304)], y: pl.Out[pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_1", 0, 98304)]], data: pl.InOut[pld.DistributedTensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_2", 0, 98304)]], signal: pl.InOut[pld.DistributedTensor[[4, 3], pl.INT32, pl.MemRef("mem_ddr_3", 0, 48)]]):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 98304)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_9: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_10: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_11: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_14: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 98304)
        staged: pl.Tile[[1, 24576], pl.FP32, pl.MemRef(mem_vec_4, 0, 98304), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 24576], [1, 24576], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_2", 0, 98304)] = pl.tile.store(staged, [0, 0], data)
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data__ssa_v0)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        my_rank_idx: pl.Scalar[pl.INDEX] = pl.cast(my_rank, pl.INDEX)
        ring_put_stage: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 0, 16384), pl.Mem.Vec] = pl.tile.create([1, 4096], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        ring_left: pl.Scalar[pl.INDEX] = (my_rank_idx - 1 + nranks_idx) % nranks_idx
        ring_right: pl.Scalar[pl.INDEX] = (my_rank_idx + 1) % nranks_idx
        nr_minus_one: pl.Scalar[pl.INDEX] = nranks_idx - 1
        for rs_step in pl.range(nr_minus_one):
            step: pl.Scalar[pl.INDEX] = rs_step + 1
            recv_idx: pl.Scalar[pl.INDEX] = (my_rank_idx - step - 1 + nranks_idx) % nranks_idx
            send_idx: pl.Scalar[pl.INDEX] = (my_rank_idx - step + nranks_idx) % nranks_idx
            rs_recv_segment_begin: pl.Scalar[pl.INDEX] = recv_idx * 24576 // 3
            rs_recv_segment_end: pl.Scalar[pl.INDEX] = (recv_idx + 1) * 24576 // 3
            rs_recv_segment_cols: pl.Scalar[pl.INDEX] = rs_recv_segment_end - rs_recv_segment_begin
            rs_send_segment_begin: pl.Scalar[pl.INDEX] = send_idx * 24576 // 3
            rs_send_segment_end: pl.Scalar[pl.INDEX] = (send_idx + 1) * 24576 // 3
            rs_send_segment_cols: pl.Scalar[pl.INDEX] = rs_send_segment_end - rs_send_segment_begin
            for rs_col in pl.range(0, 8192, 4096):
                if rs_col < rs_recv_segment_cols:
                    acc_rs_own_loaded: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, rs_recv_segment_begin + rs_col], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    acc_rs_own: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(acc_rs_own_loaded, pad_value=pl.PadValue.zero)
                    acc_own: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_own)
                else:
                    acc_rs_own_placeholder_loaded: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, 0], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    acc_rs_own_placeholder: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(acc_rs_own_placeholder_loaded, pad_value=pl.PadValue.zero)
                    acc_own: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_own_placeholder)
                rs_ready_epoch: pl.Scalar[pl.INT32] = pl.cast(rs_col // 4096 * 2 + 1, pl.INT32)
                pld.system.notify(signal, ring_right, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [rs_step, ring_left], rs_ready_epoch, cmp=1)
                if ring_left != ring_right:
                    pld.system.wait(signal, [rs_step, ring_right], rs_ready_epoch, cmp=1)
                if rs_col < rs_send_segment_cols:
                    rs_stage_valid: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.min(pl.const(4096, pl.INDEX), rs_send_segment_cols - rs_col)])] = pl.tile.set_validshape(ring_put_stage, 1, pl.min(4096, rs_send_segment_cols - rs_col))
                    pld.tile.put(data__ssa_v0, ring_right, data__ssa_v0, rs_stage_valid, [0, rs_send_segment_begin + rs_col], [0, rs_send_segment_begin + rs_col], [1, pl.min(4096, rs_send_segment_cols - rs_col)], atomic=pl.AtomicType.None_)
                rs_read_epoch: pl.Scalar[pl.INT32] = pl.cast(rs_col // 4096 * 2 + 2, pl.INT32)
                pld.system.notify(signal, ring_right, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [rs_step, ring_left], rs_read_epoch, cmp=1)
                if ring_left != ring_right:
                    pld.system.wait(signal, [rs_step, ring_right], rs_read_epoch, cmp=1)
                if rs_col < rs_recv_segment_cols:
                    recv_rs_loaded: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_9, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, rs_recv_segment_begin + rs_col], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    recv_rs: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_9, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(recv_rs_loaded, pad_value=pl.PadValue.zero)
                    acc_rs_next: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_10, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.add(acc_own, recv_rs)
                    acc_full: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_10, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_next)
                else:
                    acc_rs_placeholder_loaded: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_11, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, 0], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    acc_rs_placeholder: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_11, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(acc_rs_placeholder_loaded, pad_value=pl.PadValue.zero)
                    acc_full: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_10, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_placeholder)
                if rs_col < rs_recv_segment_cols:
                    acc_rs_valid: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_10, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.const(24576, pl.INDEX) - pl.max(pl.const(0, pl.INDEX), pl.const(24576, pl.INDEX) - (pl.const(24576, pl.INDEX) - pl.max(pl.const(0, pl.INDEX), pl.const(24576, pl.INDEX) - (rs_recv_segment_begin + rs_col)) + pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))) - (pl.const(24576, pl.INDEX) - pl.max(pl.const(0, pl.INDEX), pl.const(24576, pl.INDEX) - (rs_recv_segment_begin + rs_col)))])] = pl.tile.set_validshape(acc_full, 1, 24576 - pl.max(0, 24576 - (24576 - pl.max(0, 24576 - (rs_recv_segment_begin + rs_col)) + pl.min(4096, rs_recv_segment_cols - rs_col))) - (24576 - pl.max(0, 24576 - (rs_recv_segment_begin + rs_col))))
                    pl.tile.store(acc_rs_valid, [0, 24576 - pl.max(0, 24576 - (rs_recv_segment_begin + rs_col))], data__ssa_v0)
        for ag_step in pl.range(nr_minus_one):
            ag_step_val: pl.Scalar[pl.INDEX] = ag_step + 1
            ag_round: pl.Scalar[pl.INDEX] = ag_step + nr_minus_one
            ag_send_idx: pl.Scalar[pl.INDEX] = (my_rank_idx - ag_step_val + 1 + nranks_idx) % nranks_idx
            ag_segment_begin: pl.Scalar[pl.INDEX] = ag_send_idx * 24576 // 3
            ag_segment_end: pl.Scalar[pl.INDEX] = (ag_send_idx + 1) * 24576 // 3
            ag_segment_cols: pl.Scalar[pl.INDEX] = ag_segment_end - ag_segment_begin
            for ag_col in pl.range(0, 8192, 4096):
                ag_ready_epoch: pl.Scalar[pl.INT32] = pl.cast(ag_col // 4096 * 2 + 1, pl.INT32)
                pld.system.notify(signal, ring_right, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [ag_round, ring_left], ag_ready_epoch, cmp=1)
                if ring_left != ring_right:
                    pld.system.wait(signal, [ag_round, ring_right], ag_ready_epoch, cmp=1)
                if ag_col < ag_segment_cols:
                    ag_stage_valid: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.min(pl.const(4096, pl.INDEX), ag_segment_cols - ag_col)])] = pl.tile.set_validshape(ring_put_stage, 1, pl.min(4096, ag_segment_cols - ag_col))
                    pld.tile.put(data__ssa_v0, ring_right, data__ssa_v0, ag_stage_valid, [0, ag_segment_begin + ag_col], [0, ag_segment_begin + ag_col], [1, pl.min(4096, ag_segment_cols - ag_col)], atomic=pl.AtomicType.None_)
                ag_read_epoch: pl.Scalar[pl.INT32] = pl.cast(ag_col // 4096 * 2 + 2, pl.INT32)
                pld.system.notify(signal, ring_right, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [ag_round, ring_left], ag_read_epoch, cmp=1)
                if ring_left != ring_right:
                    pld.system.wait(signal, [ag_round, ring_right], ag_read_epoch, cmp=1)
        ring_reset_total: pl.Scalar[pl.INT32] = pl.const(4, pl.INT32)
        if ring_left != my_rank_idx:
            for reset_row in pl.range(4):
                pld.system.notify(signal, my_rank, [reset_row, ring_left], -ring_reset_total, op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, my_rank, [reset_row, ring_right], -ring_reset_total, op=0)
        data__ssa_v1: pld.DistributedTensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_13", 0, 98304)] = data__ssa_v0
        out: pl.Tile[[1, 24576], pl.FP32, pl.MemRef(mem_vec_14, 0, 98304), pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [1, 24576], [1, 24576], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_1", 0, 98304)] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[3, 1, 24576], pl.FP32, pl.MemRef("mem_ddr_0", 0, 294912)], y: pl.Out[pl.Tensor[[3, 1, 24576], pl.FP32, pl.MemRef("mem_ddr_1", 0, 294912)]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(98304)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(48)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            data: pld.DistributedTensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_2", 0, 98304)] = pld.tensor.window(data_buf, [1, 24576], dtype=pl.FP32)
            signal: pld.DistributedTensor[[4, 3], pl.INT32, pl.MemRef("mem_ddr_3", 0, 48)] = pld.tensor.window(signal_buf, [4, 3], dtype=pl.INT32)
            t__tmp_v1: pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_0", r * 24576 * 4, 98304)] = pl.tensor.slice(x, [1, 1, 24576], [r, 0, 0], [], [0])
            t__tmp_v2: pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_1", r * 24576 * 4, 98304)] = pl.tensor.slice(y, [1, 1, 24576], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v1, t__tmp_v2, data, signal, device=r)
# ==== AllocateMemoryAddr
# pypto.program: RingAllReduce
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class RingAllReduce:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_0", 0, 98304)], y: pl.Out[pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_1", 0, 98304)]], data: pl.InOut[pld.DistributedTensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_2", 0, 98304)]], signal: pl.InOut[pld.DistributedTensor[[4, 3], pl.INT32, pl.MemRef("mem_ddr_3", 0, 48)]]):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 98304)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_9: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_10: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_11: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_14: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 98304)
        staged: pl.Tile[[1, 24576], pl.FP32, pl.MemRef(mem_vec_4, 131072, 98304), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 24576], [1, 24576], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_2", 0, 98304)] = pl.tile.store(staged, [0, 0], data)
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data__ssa_v0)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        my_rank_idx: pl.Scalar[pl.INDEX] = pl.cast(my_rank, pl.INDEX)
        ring_put_stage: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 229376, 16384), pl.Mem.Vec] = pl.tile.create([1, 4096], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        ring_left: pl.Scalar[pl.INDEX] = (my_rank_idx - 1 + nranks_idx) % nranks_idx
        ring_right: pl.Scalar[pl.INDEX] = (my_rank_idx + 1) % nranks_idx
        nr_minus_one: pl.Scalar[pl.INDEX] = nranks_idx - 1
        for rs_step in pl.range(nr_minus_one):
            step: pl.Scalar[pl.INDEX] = rs_step + 1
            recv_idx: pl.Scalar[pl.INDEX] = (my_rank_idx - step - 1 + nranks_idx) % nranks_idx
            send_idx: pl.Scalar[pl.INDEX] = (my_rank_idx - step + nranks_idx) % nranks_idx
            rs_recv_segment_begin: pl.Scalar[pl.INDEX] = recv_idx * 24576 // 3
            rs_recv_segment_end: pl.Scalar[pl.INDEX] = (recv_idx + 1) * 24576 // 3
            rs_recv_segment_cols: pl.Scalar[pl.INDEX] = rs_recv_segment_end - rs_recv_segment_begin
            rs_send_segment_begin: pl.Scalar[pl.INDEX] = send_idx * 24576 // 3
            rs_send_segment_end: pl.Scalar[pl.INDEX] = (send_idx + 1) * 24576 // 3
            rs_send_segment_cols: pl.Scalar[pl.INDEX] = rs_send_segment_end - rs_send_segment_begin
            for rs_col in pl.range(0, 8192, 4096):
                if rs_col < rs_recv_segment_cols:
                    acc_rs_own_loaded: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 245760, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, rs_recv_segment_begin + rs_col], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    acc_rs_own: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 245760, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(acc_rs_own_loaded, pad_value=pl.PadValue.zero)
                    acc_own: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 245760, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_own)
                else:
                    acc_rs_own_placeholder_loaded: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 262144, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, 0], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    acc_rs_own_placeholder: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 262144, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(acc_rs_own_placeholder_loaded, pad_value=pl.PadValue.zero)
                    acc_own: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 245760, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_own_placeholder)
                rs_ready_epoch: pl.Scalar[pl.INT32] = pl.cast(rs_col // 4096 * 2 + 1, pl.INT32)
                pld.system.notify(signal, ring_right, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [rs_step, ring_left], rs_ready_epoch, cmp=1)
                if ring_left != ring_right:
                    pld.system.wait(signal, [rs_step, ring_right], rs_ready_epoch, cmp=1)
                if rs_col < rs_send_segment_cols:
                    rs_stage_valid: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 229376, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.min(pl.const(4096, pl.INDEX), rs_send_segment_cols - rs_col)])] = pl.tile.set_validshape(ring_put_stage, 1, pl.min(4096, rs_send_segment_cols - rs_col))
                    pld.tile.put(data__ssa_v0, ring_right, data__ssa_v0, rs_stage_valid, [0, rs_send_segment_begin + rs_col], [0, rs_send_segment_begin + rs_col], [1, pl.min(4096, rs_send_segment_cols - rs_col)], atomic=pl.AtomicType.None_)
                rs_read_epoch: pl.Scalar[pl.INT32] = pl.cast(rs_col // 4096 * 2 + 2, pl.INT32)
                pld.system.notify(signal, ring_right, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [rs_step, ring_left], rs_read_epoch, cmp=1)
                if ring_left != ring_right:
                    pld.system.wait(signal, [rs_step, ring_right], rs_read_epoch, cmp=1)
                if rs_col < rs_recv_segment_cols:
                    recv_rs_loaded: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_9, 278528, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, rs_recv_segment_begin + rs_col], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    recv_rs: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_9, 278528, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(recv_rs_loaded, pad_value=pl.PadValue.zero)
                    acc_rs_next: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_10, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.add(acc_own, recv_rs)
                    acc_full: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_10, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_next)
                else:
                    acc_rs_placeholder_loaded: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_11, 16384, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, 0], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    acc_rs_placeholder: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_11, 16384, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(acc_rs_placeholder_loaded, pad_value=pl.PadValue.zero)
                    acc_full: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_10, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_placeholder)
                if rs_col < rs_recv_segment_cols:
                    acc_rs_valid: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_10, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.const(24576, pl.INDEX) - pl.max(pl.const(0, pl.INDEX), pl.const(24576, pl.INDEX) - (pl.const(24576, pl.INDEX) - pl.max(pl.const(0, pl.INDEX), pl.const(24576, pl.INDEX) - (rs_recv_segment_begin + rs_col)) + pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))) - (pl.const(24576, pl.INDEX) - pl.max(pl.const(0, pl.INDEX), pl.const(24576, pl.INDEX) - (rs_recv_segment_begin + rs_col)))])] = pl.tile.set_validshape(acc_full, 1, 24576 - pl.max(0, 24576 - (24576 - pl.max(0, 24576 - (rs_recv_segment_begin + rs_col)) + pl.min(4096, rs_recv_segment_cols - rs_col))) - (24576 - pl.max(0, 24576 - (rs_recv_segment_begin + rs_col))))
                    pl.tile.store(acc_rs_valid, [0, 24576 - pl.max(0, 24576 - (rs_recv_segment_begin + rs_col))], data__ssa_v0)
        for ag_step in pl.range(nr_minus_one):
            ag_step_val: pl.Scalar[pl.INDEX] = ag_step + 1
            ag_round: pl.Scalar[pl.INDEX] = ag_step + nr_minus_one
            ag_send_idx: pl.Scalar[pl.INDEX] = (my_rank_idx - ag_step_val + 1 + nranks_idx) % nranks_idx
            ag_segment_begin: pl.Scalar[pl.INDEX] = ag_send_idx * 24576 // 3
            ag_segment_end: pl.Scalar[pl.INDEX] = (ag_send_idx + 1) * 24576 // 3
            ag_segment_cols: pl.Scalar[pl.INDEX] = ag_segment_end - ag_segment_begin
            for ag_col in pl.range(0, 8192, 4096):
                ag_ready_epoch: pl.Scalar[pl.INT32] = pl.cast(ag_col // 4096 * 2 + 1, pl.INT32)
                pld.system.notify(signal, ring_right, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [ag_round, ring_left], ag_ready_epoch, cmp=1)
                if ring_left != ring_right:
                    pld.system.wait(signal, [ag_round, ring_right], ag_ready_epoch, cmp=1)
                if ag_col < ag_segment_cols:
                    ag_stage_valid: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 229376, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.min(pl.const(4096, pl.INDEX), ag_segment_cols - ag_col)])] = pl.tile.set_validshape(ring_put_stage, 1, pl.min(4096, ag_segment_cols - ag_col))
                    pld.tile.put(data__ssa_v0, ring_right, data__ssa_v0, ag_stage_valid, [0, ag_segment_begin + ag_col], [0, ag_segment_begin + ag_col], [1, pl.min(4096, ag_segment_cols - ag_col)], atomic=pl.AtomicType.None_)
                ag_read_epoch: pl.Scalar[pl.INT32] = pl.cast(ag_col // 4096 * 2 + 2, pl.INT32)
                pld.system.notify(signal, ring_right, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [ag_round, ring_left], ag_read_epoch, cmp=1)
                if ring_left != ring_right:
                    pld.system.wait(signal, [ag_round, ring_right], ag_read_epoch, cmp=1)
        ring_reset_total: pl.Scalar[pl.INT32] = pl.const(4, pl.INT32)
        if ring_left != my_rank_idx:
            for reset_row in pl.range(4):
                pld.system.notify(signal, my_rank, [reset_row, ring_left], -ring_reset_total, op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, my_rank, [reset_row, ring_right], -ring_reset_total, op=0)
        data__ssa_v1: pld.DistributedTensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_13", 0, 98304)] = data__ssa_v0
        out: pl.Tile[[1, 24576], pl.FP32, pl.MemRef(mem_vec_14, 32768, 98304), pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [1, 24576], [1, 24576], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_1", 0, 98304)] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[3, 1, 24576], pl.FP32, pl.MemRef("mem_ddr_0", 0, 294912)], y: pl.Out[pl.Tensor[[3, 1, 24576], pl.FP32, pl.MemRef("mem_ddr_1", 0, 294912)]]):
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(98304)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(48)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            data: pld.DistributedTensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_2", 0, 98304)] = pld.tensor.window(data_buf, [1, 24576], dtype=pl.FP32)
            signal: pld.DistributedTensor[[4, 3], pl.INT32, pl.MemRef("mem_ddr_3", 0, 48)] = pld.tensor.window(signal_buf, [4, 3], dtype=pl.INT32)
            t__tmp_v1: pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_0", r * 24576 * 4, 98304)] = pl.tensor.slice(x, [1, 1, 24576], [r, 0, 0], [], [0])
            t__tmp_v2: pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_1", r * 24576 * 4, 98304)] = pl.tensor.slice(y, [1, 1, 24576], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v1, t__tmp_v2, data, signal, device=r)
# ==== SynthesizeAllReduceSignals: unchanged

# ==== MaterializeCommDomainScopes
# pypto.program: RingAllReduce
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class RingAllReduce:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_0", 0, 98304)], y: pl.Out[pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_1", 0, 98304)]], data: pl.InOut[pld.DistributedTensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_2", 0, 98304)]], signal: pl.InOut[pld.DistributedTensor[[4, 3], pl.INT32, pl.MemRef("mem_ddr_3", 0, 48)]]):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 98304)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_9: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_10: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_11: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_14: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 98304)
        staged: pl.Tile[[1, 24576], pl.FP32, pl.MemRef(mem_vec_4, 131072, 98304), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 24576], [1, 24576], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_2", 0, 98304)] = pl.tile.store(staged, [0, 0], data)
        ctx: pld.CommCtx = pld.system.get_comm_ctx(data__ssa_v0)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        my_rank_idx: pl.Scalar[pl.INDEX] = pl.cast(my_rank, pl.INDEX)
        ring_put_stage: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 229376, 16384), pl.Mem.Vec] = pl.tile.create([1, 4096], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        ring_left: pl.Scalar[pl.INDEX] = (my_rank_idx - 1 + nranks_idx) % nranks_idx
        ring_right: pl.Scalar[pl.INDEX] = (my_rank_idx + 1) % nranks_idx
        nr_minus_one: pl.Scalar[pl.INDEX] = nranks_idx - 1
        for rs_step in pl.range(nr_minus_one):
            step: pl.Scalar[pl.INDEX] = rs_step + 1
            recv_idx: pl.Scalar[pl.INDEX] = (my_rank_idx - step - 1 + nranks_idx) % nranks_idx
            send_idx: pl.Scalar[pl.INDEX] = (my_rank_idx - step + nranks_idx) % nranks_idx
            rs_recv_segment_begin: pl.Scalar[pl.INDEX] = recv_idx * 24576 // 3
            rs_recv_segment_end: pl.Scalar[pl.INDEX] = (recv_idx + 1) * 24576 // 3
            rs_recv_segment_cols: pl.Scalar[pl.INDEX] = rs_recv_segment_end - rs_recv_segment_begin
            rs_send_segment_begin: pl.Scalar[pl.INDEX] = send_idx * 24576 // 3
            rs_send_segment_end: pl.Scalar[pl.INDEX] = (send_idx + 1) * 24576 // 3
            rs_send_segment_cols: pl.Scalar[pl.INDEX] = rs_send_segment_end - rs_send_segment_begin
            for rs_col in pl.range(0, 8192, 4096):
                if rs_col < rs_recv_segment_cols:
                    acc_rs_own_loaded: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 245760, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, rs_recv_segment_begin + rs_col], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    acc_rs_own: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 245760, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(acc_rs_own_loaded, pad_value=pl.PadValue.zero)
                    acc_own: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 245760, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_own)
                else:
                    acc_rs_own_placeholder_loaded: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 262144, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, 0], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    acc_rs_own_placeholder: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 262144, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(acc_rs_own_placeholder_loaded, pad_value=pl.PadValue.zero)
                    acc_own: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 245760, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_own_placeholder)
                rs_ready_epoch: pl.Scalar[pl.INT32] = pl.cast(rs_col // 4096 * 2 + 1, pl.INT32)
                pld.system.notify(signal, ring_right, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [rs_step, ring_left], rs_ready_epoch, cmp=1)
                if ring_left != ring_right:
                    pld.system.wait(signal, [rs_step, ring_right], rs_ready_epoch, cmp=1)
                if rs_col < rs_send_segment_cols:
                    rs_stage_valid: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 229376, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.min(pl.const(4096, pl.INDEX), rs_send_segment_cols - rs_col)])] = pl.tile.set_validshape(ring_put_stage, 1, pl.min(4096, rs_send_segment_cols - rs_col))
                    pld.tile.put(data__ssa_v0, ring_right, data__ssa_v0, rs_stage_valid, [0, rs_send_segment_begin + rs_col], [0, rs_send_segment_begin + rs_col], [1, pl.min(4096, rs_send_segment_cols - rs_col)], atomic=pl.AtomicType.None_)
                rs_read_epoch: pl.Scalar[pl.INT32] = pl.cast(rs_col // 4096 * 2 + 2, pl.INT32)
                pld.system.notify(signal, ring_right, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [rs_step, ring_left], rs_read_epoch, cmp=1)
                if ring_left != ring_right:
                    pld.system.wait(signal, [rs_step, ring_right], rs_read_epoch, cmp=1)
                if rs_col < rs_recv_segment_cols:
                    recv_rs_loaded: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_9, 278528, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, rs_recv_segment_begin + rs_col], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    recv_rs: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_9, 278528, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(recv_rs_loaded, pad_value=pl.PadValue.zero)
                    acc_rs_next: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_10, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.add(acc_own, recv_rs)
                    acc_full: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_10, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_next)
                else:
                    acc_rs_placeholder_loaded: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_11, 16384, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, 0], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    acc_rs_placeholder: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_11, 16384, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(acc_rs_placeholder_loaded, pad_value=pl.PadValue.zero)
                    acc_full: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_10, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_placeholder)
                if rs_col < rs_recv_segment_cols:
                    acc_rs_valid: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_10, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.const(24576, pl.INDEX) - pl.max(pl.const(0, pl.INDEX), pl.const(24576, pl.INDEX) - (pl.const(24576, pl.INDEX) - pl.max(pl.const(0, pl.INDEX), pl.const(24576, pl.INDEX) - (rs_recv_segment_begin + rs_col)) + pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))) - (pl.const(24576, pl.INDEX) - pl.max(pl.const(0, pl.INDEX), pl.const(24576, pl.INDEX) - (rs_recv_segment_begin + rs_col)))])] = pl.tile.set_validshape(acc_full, 1, 24576 - pl.max(0, 24576 - (24576 - pl.max(0, 24576 - (rs_recv_segment_begin + rs_col)) + pl.min(4096, rs_recv_segment_cols - rs_col))) - (24576 - pl.max(0, 24576 - (rs_recv_segment_begin + rs_col))))
                    pl.tile.store(acc_rs_valid, [0, 24576 - pl.max(0, 24576 - (rs_recv_segment_begin + rs_col))], data__ssa_v0)
        for ag_step in pl.range(nr_minus_one):
            ag_step_val: pl.Scalar[pl.INDEX] = ag_step + 1
            ag_round: pl.Scalar[pl.INDEX] = ag_step + nr_minus_one
            ag_send_idx: pl.Scalar[pl.INDEX] = (my_rank_idx - ag_step_val + 1 + nranks_idx) % nranks_idx
            ag_segment_begin: pl.Scalar[pl.INDEX] = ag_send_idx * 24576 // 3
            ag_segment_end: pl.Scalar[pl.INDEX] = (ag_send_idx + 1) * 24576 // 3
            ag_segment_cols: pl.Scalar[pl.INDEX] = ag_segment_end - ag_segment_begin
            for ag_col in pl.range(0, 8192, 4096):
                ag_ready_epoch: pl.Scalar[pl.INT32] = pl.cast(ag_col // 4096 * 2 + 1, pl.INT32)
                pld.system.notify(signal, ring_right, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [ag_round, ring_left], ag_ready_epoch, cmp=1)
                if ring_left != ring_right:
                    pld.system.wait(signal, [ag_round, ring_right], ag_ready_epoch, cmp=1)
                if ag_col < ag_segment_cols:
                    ag_stage_valid: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 229376, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.min(pl.const(4096, pl.INDEX), ag_segment_cols - ag_col)])] = pl.tile.set_validshape(ring_put_stage, 1, pl.min(4096, ag_segment_cols - ag_col))
                    pld.tile.put(data__ssa_v0, ring_right, data__ssa_v0, ag_stage_valid, [0, ag_segment_begin + ag_col], [0, ag_segment_begin + ag_col], [1, pl.min(4096, ag_segment_cols - ag_col)], atomic=pl.AtomicType.None_)
                ag_read_epoch: pl.Scalar[pl.INT32] = pl.cast(ag_col // 4096 * 2 + 2, pl.INT32)
                pld.system.notify(signal, ring_right, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [ag_round, ring_left], ag_read_epoch, cmp=1)
                if ring_left != ring_right:
                    pld.system.wait(signal, [ag_round, ring_right], ag_read_epoch, cmp=1)
        ring_reset_total: pl.Scalar[pl.INT32] = pl.const(4, pl.INT32)
        if ring_left != my_rank_idx:
            for reset_row in pl.range(4):
                pld.system.notify(signal, my_rank, [reset_row, ring_left], -ring_reset_total, op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, my_rank, [reset_row, ring_right], -ring_reset_total, op=0)
        data__ssa_v1: pld.DistributedTensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_13", 0, 98304)] = data__ssa_v0
        out: pl.Tile[[1, 24576], pl.FP32, pl.MemRef(mem_vec_14, 32768, 98304), pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [1, 24576], [1, 24576], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_1", 0, 98304)] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[3, 1, 24576], pl.FP32, pl.MemRef("mem_ddr_0", 0, 294912)], y: pl.Out[pl.Tensor[[3, 1, 24576], pl.FP32, pl.MemRef("mem_ddr_1", 0, 294912)]]):
        # pld.comm_domain: devices=all, slots=[data_buf, signal_buf]
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(98304)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(48)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            data: pld.DistributedTensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_2", 0, 98304)] = pld.tensor.window(data_buf, [1, 24576], dtype=pl.FP32)
            signal: pld.DistributedTensor[[4, 3], pl.INT32, pl.MemRef("mem_ddr_3", 0, 48)] = pld.tensor.window(signal_buf, [4, 3], dtype=pl.INT32)
            t__tmp_v1: pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_0", r * 24576 * 4, 98304)] = pl.tensor.slice(x, [1, 1, 24576], [r, 0, 0], [], [0])
            t__tmp_v2: pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_1", r * 24576 * 4, 98304)] = pl.tensor.slice(y, [1, 1, 24576], [r, 0, 0], [], [0])
            self.kernel(t__tmp_v1, t__tmp_v2, data, signal, device=r)
# ==== LowerHostTensorCollectives: unchanged

# ==== MaterializeDistTensorCtx
# pypto.program: RingAllReduce
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class RingAllReduce:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_0", 0, 98304)], y: pl.Out[pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_1", 0, 98304)]], data: pl.InOut[pld.DistributedTensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_2", 0, 98304)]], signal: pl.InOut[pld.DistributedTensor[[4, 3], pl.INT32, pl.MemRef("mem_ddr_3", 0, 48)]], data_ctx: pld.CommCtx, signal_ctx: pld.CommCtx):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 98304)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_9: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_10: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_11: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_14: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 98304)
        staged: pl.Tile[[1, 24576], pl.FP32, pl.MemRef(mem_vec_4, 131072, 98304), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 24576], [1, 24576], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_2", 0, 98304)] = pl.tile.store(staged, [0, 0], data)
        ctx: pld.CommCtx = data_ctx
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        my_rank_idx: pl.Scalar[pl.INDEX] = pl.cast(my_rank, pl.INDEX)
        ring_put_stage: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 229376, 16384), pl.Mem.Vec] = pl.tile.create([1, 4096], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        ring_left: pl.Scalar[pl.INDEX] = (my_rank_idx - 1 + nranks_idx) % nranks_idx
        ring_right: pl.Scalar[pl.INDEX] = (my_rank_idx + 1) % nranks_idx
        nr_minus_one: pl.Scalar[pl.INDEX] = nranks_idx - 1
        for rs_step in pl.range(nr_minus_one):
            step: pl.Scalar[pl.INDEX] = rs_step + 1
            recv_idx: pl.Scalar[pl.INDEX] = (my_rank_idx - step - 1 + nranks_idx) % nranks_idx
            send_idx: pl.Scalar[pl.INDEX] = (my_rank_idx - step + nranks_idx) % nranks_idx
            rs_recv_segment_begin: pl.Scalar[pl.INDEX] = recv_idx * 24576 // 3
            rs_recv_segment_end: pl.Scalar[pl.INDEX] = (recv_idx + 1) * 24576 // 3
            rs_recv_segment_cols: pl.Scalar[pl.INDEX] = rs_recv_segment_end - rs_recv_segment_begin
            rs_send_segment_begin: pl.Scalar[pl.INDEX] = send_idx * 24576 // 3
            rs_send_segment_end: pl.Scalar[pl.INDEX] = (send_idx + 1) * 24576 // 3
            rs_send_segment_cols: pl.Scalar[pl.INDEX] = rs_send_segment_end - rs_send_segment_begin
            for rs_col in pl.range(0, 8192, 4096):
                if rs_col < rs_recv_segment_cols:
                    acc_rs_own_loaded: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 245760, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, rs_recv_segment_begin + rs_col], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    acc_rs_own: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 245760, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(acc_rs_own_loaded, pad_value=pl.PadValue.zero)
                    acc_own: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 245760, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_own)
                else:
                    acc_rs_own_placeholder_loaded: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 262144, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, 0], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    acc_rs_own_placeholder: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 262144, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(acc_rs_own_placeholder_loaded, pad_value=pl.PadValue.zero)
                    acc_own: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 245760, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_own_placeholder)
                rs_ready_epoch: pl.Scalar[pl.INT32] = pl.cast(rs_col // 4096 * 2 + 1, pl.INT32)
                pld.system.notify(signal, ring_right, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [rs_step, ring_left], rs_ready_epoch, cmp=1)
                if ring_left != ring_right:
                    pld.system.wait(signal, [rs_step, ring_right], rs_ready_epoch, cmp=1)
                if rs_col < rs_send_segment_cols:
                    rs_stage_valid: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 229376, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.min(pl.const(4096, pl.INDEX), rs_send_segment_cols - rs_col)])] = pl.tile.set_validshape(ring_put_stage, 1, pl.min(4096, rs_send_segment_cols - rs_col))
                    pld.tile.put(data__ssa_v0, ring_right, data__ssa_v0, rs_stage_valid, [0, rs_send_segment_begin + rs_col], [0, rs_send_segment_begin + rs_col], [1, pl.min(4096, rs_send_segment_cols - rs_col)], atomic=pl.AtomicType.None_)
                rs_read_epoch: pl.Scalar[pl.INT32] = pl.cast(rs_col // 4096 * 2 + 2, pl.INT32)
                pld.system.notify(signal, ring_right, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [rs_step, ring_left], rs_read_epoch, cmp=1)
                if ring_left != ring_right:
                    pld.system.wait(signal, [rs_step, ring_right], rs_read_epoch, cmp=1)
                if rs_col < rs_recv_segment_cols:
                    recv_rs_loaded: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_9, 278528, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, rs_recv_segment_begin + rs_col], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    recv_rs: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_9, 278528, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(recv_rs_loaded, pad_value=pl.PadValue.zero)
                    acc_rs_next: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_10, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.add(acc_own, recv_rs)
                    acc_full: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_10, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_next)
                else:
                    acc_rs_placeholder_loaded: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_11, 16384, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, 0], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    acc_rs_placeholder: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_11, 16384, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(acc_rs_placeholder_loaded, pad_value=pl.PadValue.zero)
                    acc_full: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_10, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_placeholder)
                if rs_col < rs_recv_segment_cols:
                    acc_rs_valid: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_10, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.const(24576, pl.INDEX) - pl.max(pl.const(0, pl.INDEX), pl.const(24576, pl.INDEX) - (pl.const(24576, pl.INDEX) - pl.max(pl.const(0, pl.INDEX), pl.const(24576, pl.INDEX) - (rs_recv_segment_begin + rs_col)) + pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))) - (pl.const(24576, pl.INDEX) - pl.max(pl.const(0, pl.INDEX), pl.const(24576, pl.INDEX) - (rs_recv_segment_begin + rs_col)))])] = pl.tile.set_validshape(acc_full, 1, 24576 - pl.max(0, 24576 - (24576 - pl.max(0, 24576 - (rs_recv_segment_begin + rs_col)) + pl.min(4096, rs_recv_segment_cols - rs_col))) - (24576 - pl.max(0, 24576 - (rs_recv_segment_begin + rs_col))))
                    pl.tile.store(acc_rs_valid, [0, 24576 - pl.max(0, 24576 - (rs_recv_segment_begin + rs_col))], data__ssa_v0)
        for ag_step in pl.range(nr_minus_one):
            ag_step_val: pl.Scalar[pl.INDEX] = ag_step + 1
            ag_round: pl.Scalar[pl.INDEX] = ag_step + nr_minus_one
            ag_send_idx: pl.Scalar[pl.INDEX] = (my_rank_idx - ag_step_val + 1 + nranks_idx) % nranks_idx
            ag_segment_begin: pl.Scalar[pl.INDEX] = ag_send_idx * 24576 // 3
            ag_segment_end: pl.Scalar[pl.INDEX] = (ag_send_idx + 1) * 24576 // 3
            ag_segment_cols: pl.Scalar[pl.INDEX] = ag_segment_end - ag_segment_begin
            for ag_col in pl.range(0, 8192, 4096):
                ag_ready_epoch: pl.Scalar[pl.INT32] = pl.cast(ag_col // 4096 * 2 + 1, pl.INT32)
                pld.system.notify(signal, ring_right, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [ag_round, ring_left], ag_ready_epoch, cmp=1)
                if ring_left != ring_right:
                    pld.system.wait(signal, [ag_round, ring_right], ag_ready_epoch, cmp=1)
                if ag_col < ag_segment_cols:
                    ag_stage_valid: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 229376, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.min(pl.const(4096, pl.INDEX), ag_segment_cols - ag_col)])] = pl.tile.set_validshape(ring_put_stage, 1, pl.min(4096, ag_segment_cols - ag_col))
                    pld.tile.put(data__ssa_v0, ring_right, data__ssa_v0, ag_stage_valid, [0, ag_segment_begin + ag_col], [0, ag_segment_begin + ag_col], [1, pl.min(4096, ag_segment_cols - ag_col)], atomic=pl.AtomicType.None_)
                ag_read_epoch: pl.Scalar[pl.INT32] = pl.cast(ag_col // 4096 * 2 + 2, pl.INT32)
                pld.system.notify(signal, ring_right, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [ag_round, ring_left], ag_read_epoch, cmp=1)
                if ring_left != ring_right:
                    pld.system.wait(signal, [ag_round, ring_right], ag_read_epoch, cmp=1)
        ring_reset_total: pl.Scalar[pl.INT32] = pl.const(4, pl.INT32)
        if ring_left != my_rank_idx:
            for reset_row in pl.range(4):
                pld.system.notify(signal, my_rank, [reset_row, ring_left], -ring_reset_total, op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, my_rank, [reset_row, ring_right], -ring_reset_total, op=0)
        data__ssa_v1: pld.DistributedTensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_13", 0, 98304)] = data__ssa_v0
        out: pl.Tile[[1, 24576], pl.FP32, pl.MemRef(mem_vec_14, 32768, 98304), pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [1, 24576], [1, 24576], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_1", 0, 98304)] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[3, 1, 24576], pl.FP32, pl.MemRef("mem_ddr_0", 0, 294912)], y: pl.Out[pl.Tensor[[3, 1, 24576], pl.FP32, pl.MemRef("mem_ddr_1", 0, 294912)]]):
        # pld.comm_domain: devices=all, slots=[data_buf, signal_buf]
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(98304)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(48)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            data: pld.DistributedTensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_2", 0, 98304)] = pld.tensor.window(data_buf, [1, 24576], dtype=pl.FP32)
            signal: pld.DistributedTensor[[4, 3], pl.INT32, pl.MemRef("mem_ddr_3", 0, 48)] = pld.tensor.window(signal_buf, [4, 3], dtype=pl.INT32)
            t__tmp_v1: pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_0", r * 24576 * 4, 98304)] = pl.tensor.slice(x, [1, 1, 24576], [r, 0, 0], [], [0])
            t__tmp_v2: pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_1", r * 24576 * 4, 98304)] = pl.tensor.slice(y, [1, 1, 24576], [r, 0, 0], [], [0])
            data_ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
            signal_ctx: pld.CommCtx = pld.system.get_comm_ctx(signal)
            self.kernel(t__tmp_v1, t__tmp_v2, data, signal, data_ctx, signal_ctx, device=r)
# ==== InsertCommFence
# pypto.program: RingAllReduce
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class RingAllReduce:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(x: pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_0", 0, 98304)], y: pl.Out[pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_1", 0, 98304)]], data: pl.InOut[pld.DistributedTensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_2", 0, 98304)]], signal: pl.InOut[pld.DistributedTensor[[4, 3], pl.INT32, pl.MemRef("mem_ddr_3", 0, 48)]], data_ctx: pld.CommCtx, signal_ctx: pld.CommCtx):
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 98304)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_9: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_10: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_11: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384)
        mem_vec_14: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 98304)
        staged: pl.Tile[[1, 24576], pl.FP32, pl.MemRef(mem_vec_4, 131072, 98304), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 24576], [1, 24576], target_memory=pl.Mem.Vec)
        data__ssa_v0: pld.DistributedTensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_2", 0, 98304)] = pl.tile.store(staged, [0, 0], data)
        pl.system.cacheinvalid(data, [1, 24576], [0, 0])
        pl.system.fence()
        ctx: pld.CommCtx = data_ctx
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        my_rank_idx: pl.Scalar[pl.INDEX] = pl.cast(my_rank, pl.INDEX)
        ring_put_stage: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 229376, 16384), pl.Mem.Vec] = pl.tile.create([1, 4096], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        ring_left: pl.Scalar[pl.INDEX] = (my_rank_idx - 1 + nranks_idx) % nranks_idx
        ring_right: pl.Scalar[pl.INDEX] = (my_rank_idx + 1) % nranks_idx
        nr_minus_one: pl.Scalar[pl.INDEX] = nranks_idx - 1
        for rs_step in pl.range(nr_minus_one):
            step: pl.Scalar[pl.INDEX] = rs_step + 1
            recv_idx: pl.Scalar[pl.INDEX] = (my_rank_idx - step - 1 + nranks_idx) % nranks_idx
            send_idx: pl.Scalar[pl.INDEX] = (my_rank_idx - step + nranks_idx) % nranks_idx
            rs_recv_segment_begin: pl.Scalar[pl.INDEX] = recv_idx * 24576 // 3
            rs_recv_segment_end: pl.Scalar[pl.INDEX] = (recv_idx + 1) * 24576 // 3
            rs_recv_segment_cols: pl.Scalar[pl.INDEX] = rs_recv_segment_end - rs_recv_segment_begin
            rs_send_segment_begin: pl.Scalar[pl.INDEX] = send_idx * 24576 // 3
            rs_send_segment_end: pl.Scalar[pl.INDEX] = (send_idx + 1) * 24576 // 3
            rs_send_segment_cols: pl.Scalar[pl.INDEX] = rs_send_segment_end - rs_send_segment_begin
            for rs_col in pl.range(0, 8192, 4096):
                if rs_col < rs_recv_segment_cols:
                    acc_rs_own_loaded: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 245760, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, rs_recv_segment_begin + rs_col], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    acc_rs_own: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 245760, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(acc_rs_own_loaded, pad_value=pl.PadValue.zero)
                    acc_own: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 245760, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_own)
                else:
                    acc_rs_own_placeholder_loaded: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 262144, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, 0], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    acc_rs_own_placeholder: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_7, 262144, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(acc_rs_own_placeholder_loaded, pad_value=pl.PadValue.zero)
                    acc_own: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_6, 245760, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_own_placeholder)
                rs_ready_epoch: pl.Scalar[pl.INT32] = pl.cast(rs_col // 4096 * 2 + 1, pl.INT32)
                pld.system.notify(signal, ring_right, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [rs_step, ring_left], rs_ready_epoch, cmp=1)
                pl.system.cacheinvalid()
                if ring_left != ring_right:
                    pld.system.wait(signal, [rs_step, ring_right], rs_ready_epoch, cmp=1)
                    pl.system.cacheinvalid()
                if rs_col < rs_send_segment_cols:
                    rs_stage_valid: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 229376, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.min(pl.const(4096, pl.INDEX), rs_send_segment_cols - rs_col)])] = pl.tile.set_validshape(ring_put_stage, 1, pl.min(4096, rs_send_segment_cols - rs_col))
                    pld.tile.put(data__ssa_v0, ring_right, data__ssa_v0, rs_stage_valid, [0, rs_send_segment_begin + rs_col], [0, rs_send_segment_begin + rs_col], [1, pl.min(4096, rs_send_segment_cols - rs_col)], atomic=pl.AtomicType.None_)
                    pl.system.fence()
                rs_read_epoch: pl.Scalar[pl.INT32] = pl.cast(rs_col // 4096 * 2 + 2, pl.INT32)
                pld.system.notify(signal, ring_right, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [rs_step, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [rs_step, ring_left], rs_read_epoch, cmp=1)
                pl.system.cacheinvalid()
                if ring_left != ring_right:
                    pld.system.wait(signal, [rs_step, ring_right], rs_read_epoch, cmp=1)
                    pl.system.cacheinvalid()
                if rs_col < rs_recv_segment_cols:
                    recv_rs_loaded: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_9, 278528, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, rs_recv_segment_begin + rs_col], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    recv_rs: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_9, 278528, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(recv_rs_loaded, pad_value=pl.PadValue.zero)
                    acc_rs_next: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_10, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.add(acc_own, recv_rs)
                    acc_full: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_10, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_next)
                else:
                    acc_rs_placeholder_loaded: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_11, 16384, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.load(data__ssa_v0, [0, 0], [1, 4096], [1, pl.max(1, pl.min(4096, rs_recv_segment_cols - rs_col))], target_memory=pl.Mem.Vec)
                    acc_rs_placeholder: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_11, 16384, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.tile.fillpad_inplace(acc_rs_placeholder_loaded, pad_value=pl.PadValue.zero)
                    acc_full: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_10, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.max(pl.const(1, pl.INDEX), pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))])] = pl.yield_(acc_rs_placeholder)
                if rs_col < rs_recv_segment_cols:
                    acc_rs_valid: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_10, 0, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.const(24576, pl.INDEX) - pl.max(pl.const(0, pl.INDEX), pl.const(24576, pl.INDEX) - (pl.const(24576, pl.INDEX) - pl.max(pl.const(0, pl.INDEX), pl.const(24576, pl.INDEX) - (rs_recv_segment_begin + rs_col)) + pl.min(pl.const(4096, pl.INDEX), rs_recv_segment_cols - rs_col))) - (pl.const(24576, pl.INDEX) - pl.max(pl.const(0, pl.INDEX), pl.const(24576, pl.INDEX) - (rs_recv_segment_begin + rs_col)))])] = pl.tile.set_validshape(acc_full, 1, 24576 - pl.max(0, 24576 - (24576 - pl.max(0, 24576 - (rs_recv_segment_begin + rs_col)) + pl.min(4096, rs_recv_segment_cols - rs_col))) - (24576 - pl.max(0, 24576 - (rs_recv_segment_begin + rs_col))))
                    pl.tile.store(acc_rs_valid, [0, 24576 - pl.max(0, 24576 - (rs_recv_segment_begin + rs_col))], data__ssa_v0)
                    pl.system.cacheinvalid(data__ssa_v0, [1, 24576], [0, 0])
                    pl.system.fence()
        for ag_step in pl.range(nr_minus_one):
            ag_step_val: pl.Scalar[pl.INDEX] = ag_step + 1
            ag_round: pl.Scalar[pl.INDEX] = ag_step + nr_minus_one
            ag_send_idx: pl.Scalar[pl.INDEX] = (my_rank_idx - ag_step_val + 1 + nranks_idx) % nranks_idx
            ag_segment_begin: pl.Scalar[pl.INDEX] = ag_send_idx * 24576 // 3
            ag_segment_end: pl.Scalar[pl.INDEX] = (ag_send_idx + 1) * 24576 // 3
            ag_segment_cols: pl.Scalar[pl.INDEX] = ag_segment_end - ag_segment_begin
            for ag_col in pl.range(0, 8192, 4096):
                ag_ready_epoch: pl.Scalar[pl.INT32] = pl.cast(ag_col // 4096 * 2 + 1, pl.INT32)
                pld.system.notify(signal, ring_right, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [ag_round, ring_left], ag_ready_epoch, cmp=1)
                pl.system.cacheinvalid()
                if ring_left != ring_right:
                    pld.system.wait(signal, [ag_round, ring_right], ag_ready_epoch, cmp=1)
                    pl.system.cacheinvalid()
                if ag_col < ag_segment_cols:
                    ag_stage_valid: pl.Tile[[1, 4096], pl.FP32, pl.MemRef(mem_vec_5, 229376, 16384), pl.Mem.Vec, pl.TileView(valid_shape=[1, pl.min(pl.const(4096, pl.INDEX), ag_segment_cols - ag_col)])] = pl.tile.set_validshape(ring_put_stage, 1, pl.min(4096, ag_segment_cols - ag_col))
                    pld.tile.put(data__ssa_v0, ring_right, data__ssa_v0, ag_stage_valid, [0, ag_segment_begin + ag_col], [0, ag_segment_begin + ag_col], [1, pl.min(4096, ag_segment_cols - ag_col)], atomic=pl.AtomicType.None_)
                    pl.system.fence()
                ag_read_epoch: pl.Scalar[pl.INT32] = pl.cast(ag_col // 4096 * 2 + 2, pl.INT32)
                pld.system.notify(signal, ring_right, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, ring_left, [ag_round, my_rank], pl.const(1, pl.INT32), op=0)
                pld.system.wait(signal, [ag_round, ring_left], ag_read_epoch, cmp=1)
                pl.system.cacheinvalid()
                if ring_left != ring_right:
                    pld.system.wait(signal, [ag_round, ring_right], ag_read_epoch, cmp=1)
                    pl.system.cacheinvalid()
        ring_reset_total: pl.Scalar[pl.INT32] = pl.const(4, pl.INT32)
        if ring_left != my_rank_idx:
            for reset_row in pl.range(4):
                pld.system.notify(signal, my_rank, [reset_row, ring_left], -ring_reset_total, op=0)
                if ring_left != ring_right:
                    pld.system.notify(signal, my_rank, [reset_row, ring_right], -ring_reset_total, op=0)
        data__ssa_v1: pld.DistributedTensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_13", 0, 98304)] = data__ssa_v0
        out: pl.Tile[[1, 24576], pl.FP32, pl.MemRef(mem_vec_14, 32768, 98304), pl.Mem.Vec] = pl.tile.load(data__ssa_v1, [0, 0], [1, 24576], [1, 24576], target_memory=pl.Mem.Vec)
        y__ssa_v0: pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_1", 0, 98304)] = pl.tile.store(out, [0, 0], y)
        return
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[3, 1, 24576], pl.FP32, pl.MemRef("mem_ddr_0", 0, 294912)], y: pl.Out[pl.Tensor[[3, 1, 24576], pl.FP32, pl.MemRef("mem_ddr_1", 0, 294912)]]):
        # pld.comm_domain: devices=all, slots=[data_buf, signal_buf]
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(98304)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(48)
        t__tmp_v0: pl.Scalar[pl.INT64] = pld.system.world_size()
        for r in pl.range(t__tmp_v0):
            data: pld.DistributedTensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_2", 0, 98304)] = pld.tensor.window(data_buf, [1, 24576], dtype=pl.FP32)
            signal: pld.DistributedTensor[[4, 3], pl.INT32, pl.MemRef("mem_ddr_3", 0, 48)] = pld.tensor.window(signal_buf, [4, 3], dtype=pl.INT32)
            t__tmp_v1: pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_0", r * 24576 * 4, 98304)] = pl.tensor.slice(x, [1, 1, 24576], [r, 0, 0], [], [0])
            t__tmp_v2: pl.Tensor[[1, 24576], pl.FP32, pl.MemRef("mem_ddr_1", r * 24576 * 4, 98304)] = pl.tensor.slice(y, [1, 1, 24576], [r, 0, 0], [], [0])
            data_ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
            signal_ctx: pld.CommCtx = pld.system.get_comm_ctx(signal)
            self.kernel(t__tmp_v1, t__tmp_v2, data, signal, data_ctx, signal_ctx, device=r)
