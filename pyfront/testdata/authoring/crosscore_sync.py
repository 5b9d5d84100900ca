"""Explicit cross-core events: two vector lanes each compute an uneven
share of (a + b) into one GM transfer tensor and raise a mode-2 event,
which fires once both have; the cube waits for it, then multiplies the
whole transfer by the weight. In one_lane_raises only lane 0 raises the
event, so the cube's wait could never end."""

import pypto.language as pl

ROWS = 16
K = 16
N = 16
LANE0 = 6
EV = 4
WS = 256


@pl.jit
def lanes_then_cube(
    a: pl.Tensor[[ROWS, K], pl.FP32],
    b: pl.Tensor[[ROWS, K], pl.FP32],
    weight: pl.Tensor[[K, N], pl.FP32],
    transfer: pl.InOut[pl.Tensor[[ROWS, K], pl.FP32]],
    ws: pl.Tensor[[WS], pl.INT64],
    output: pl.Out[pl.Tensor[[ROWS, N], pl.FP32]],
):
    for _ in pl.spmd(1, name_hint="lanes_then_cube"):
        pl.system.set_ffts(ws)
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.NONE):
            if aiv_id == 0:
                s0 = pl.add(pl.load(a, [0, 0], [LANE0, K]), pl.load(b, [0, 0], [LANE0, K]))
                pl.store(s0, [0, 0], transfer)
            else:
                s1 = pl.add(pl.load(a, [LANE0, 0], [ROWS - LANE0, K]), pl.load(b, [LANE0, 0], [ROWS - LANE0, K]))
                pl.store(s1, [LANE0, 0], transfer)
            pl.system.sync_set(EV, pipe=pl.PipeType.MTE3, ffts_mode=2, core_type="aiv")
        pl.system.sync_wait(EV, pipe=pl.PipeType.MTE2, core_type="aic")
        t_mat = pl.load(transfer, [0, 0], [ROWS, K], target_memory=pl.Mem.Mat)
        w_mat = pl.load(weight, [0, 0], [K, N], target_memory=pl.Mem.Mat)
        result = pl.matmul(pl.move(t_mat, target_memory=pl.Mem.Left), pl.move(w_mat, target_memory=pl.Mem.Right))
        output = pl.store(result, [0, 0], output)
    return output


@pl.jit
def one_lane_raises(
    a: pl.Tensor[[ROWS, K], pl.FP32],
    transfer: pl.InOut[pl.Tensor[[ROWS, K], pl.FP32]],
    ws: pl.Tensor[[WS], pl.INT64],
    output: pl.Out[pl.Tensor[[ROWS, K], pl.FP32]],
):
    for _ in pl.spmd(1, name_hint="one_lane_raises"):
        pl.system.set_ffts(ws)
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.NONE):
            if aiv_id == 0:
                pl.store(pl.load(a, [0, 0], [ROWS, K]), [0, 0], transfer)
                pl.system.sync_set(EV, pipe=pl.PipeType.MTE3, ffts_mode=2, core_type="aiv")
        pl.system.sync_wait(EV, pipe=pl.PipeType.MTE2, core_type="aic")
        t = pl.load(transfer, [0, 0], [ROWS, K])
        output = pl.store(t, [0, 0], output)
    return output
