"""A distributed test in the form upstream's take, for the oracle plugin's
own test: it compiles its program for two devices, calls it on torch
tensors and asserts on the outputs itself."""

import pypto.language as pl
import pypto.language.distributed as pld
import torch
from pypto import ir
from pypto.ir.distributed_compiled_program import DistributedConfig

SIZE = 64


def _build_exchange():
    @pl.program
    class Exchange:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            inp: pl.Tensor[[1, SIZE], pl.FP32],
            out: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
            buf: pld.DistributedTensor[[1, SIZE], pl.FP32],
            signal: pld.DistributedTensor[[1, 1], pl.INT32],
            peer: pl.Scalar[pl.INT32],
        ) -> pl.Tensor[[1, SIZE], pl.FP32]:
            t = pl.load(inp, [0, 0], [1, SIZE])
            pld.tile.remote_store(t, target=buf, peer=peer, offsets=[0, 0])
            pld.system.notify(target=signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
            pld.system.wait(signal=signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
            got = pl.load(buf, [0, 0], [1, SIZE])
            return pl.store(pl.mul(got, 2.0), [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(
            self,
            inp: pl.Tensor[[1, SIZE], pl.FP32],
            out: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
            buf: pld.DistributedTensor[[1, SIZE], pl.FP32],
            signal: pld.DistributedTensor[[1, 1], pl.INT32],
            peer: pl.Scalar[pl.INT32],
        ) -> pl.Tensor[[1, SIZE], pl.FP32]:
            return self.step(inp, out, buf, signal, peer)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(
            self,
            inputs: pl.Tensor[[2, 1, SIZE], pl.FP32],
            outputs: pl.Out[pl.Tensor[[2, 1, SIZE], pl.FP32]],
        ) -> pl.Tensor[[2, 1, SIZE], pl.FP32]:
            buf_mem = pld.alloc_window_buffer(SIZE * pl.FP32.get_byte())
            signal_mem = pld.alloc_window_buffer(pl.INT32.get_byte())
            for r in pl.range(pld.world_size()):
                buf = pld.window(buf_mem, [1, SIZE], dtype=pl.FP32)
                signal = pld.window(signal_mem, [1, 1], dtype=pl.INT32)
                self.chip(inputs[r], outputs[r], buf, signal, (r + 1) % pld.world_size(), device=r)
            return outputs

    return Exchange


class TestExchange:
    def test_exchange(self, test_config, device_ids):
        compiled = ir.compile(
            _build_exchange(),
            platform=test_config.platform,
            distributed_config=DistributedConfig(device_ids=device_ids[:2]),
        )
        inputs = torch.randn(2, 1, SIZE)
        outputs = torch.zeros(2, 1, SIZE)
        compiled(inputs, outputs)
        expected = torch.stack([inputs[1], inputs[0]]) * 2
        assert torch.allclose(outputs, expected)
