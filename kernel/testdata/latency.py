"""Median execute round trip of the ptorepl kernel and of ipykernel, measured
the same way with jupyter_client in one run (BenchmarkExecuteLatency runs it).

A round trip is the time from sending an execute_request until the client has
both the execute_reply (shell) and the kernel's idle status for that request
(iopub): what a notebook waits for before it shows a cell as done.

Two cells per kernel:
  trivial  `1 + 1` in both languages.
  dsl      100 DSL calls building a small program. For ptorepl that is 20
           iterations of f.Let(name, pld.Rank(ctx)) and
           f.Do(pld.Notify(sig, me, pl.Dims(0, 0), 1, pld.AtomicAdd)) — five
           pl/pld calls each — inside a kernel of a fresh pl.Program. For
           ipykernel it is the same cell written against a minimal Python
           builder (defined once, outside the timing): the same 20 iterations
           of f.let(name, rank(ctx)) and f.do(notify(sig, me, dims(0, 0), 1)),
           five calls each, every call allocating a node of a small object
           graph, as pl/pld calls allocate IR nodes. It is the cheapest
           Python program with the same call structure, so the comparison
           bounds what an embedded Python DSL could cost from below.
Both dsl cells end with the number of statements built (42), which is checked.

Kernels are measured alternately, round by round, so load on the machine
affects both alike. Prints one line per measurement series and, last, one
JSON object with the medians in milliseconds.
"""
import json
import os
import statistics
import sys
import time

from jupyter_client.manager import start_new_kernel

ROUNDS = int(os.environ.get("LATENCY_ROUNDS", "40"))
WARMUP = int(os.environ.get("LATENCY_WARMUP", "3"))
TIMEOUT = 60

GO_SETUP = "var latProg *pl.Program\nvar latN int"
GO_DSL = """latProg = pl.NewProgram("Latency")
latN = 0
latProg.InCore("k", func(f *pl.Func) {
	sig := f.InOut("signal", pld.DistributedTensor(pl.Dims(4, 1), pl.INT32))
	ctx := f.Let("ctx", pld.GetCommCtx(sig))
	latN = 2
	for i := 0; i < 20; i++ {
		me := f.Let(fmt.Sprintf("me%d", i), pld.Rank(ctx))
		f.Do(pld.Notify(sig, me, pl.Dims(0, 0), 1, pld.AtomicAdd))
		latN += 2
	}
})
latN"""

PY_SETUP = '''
class Node:
    __slots__ = ("op", "args", "name")

    def __init__(self, op, *args, name=None):
        self.op, self.args, self.name = op, args, name


class Func:
    def __init__(self, name):
        self.name, self.params, self.body = name, [], []

    def in_out(self, name, typ):
        n = Node("param", typ, name=name)
        self.params.append(n)
        self.body.append(n)
        return n

    def let(self, name, e):
        n = Node("let", e, name=name)
        self.body.append(n)
        return n

    def do(self, e):
        self.body.append(Node("do", e))


def distributed_tensor(shape, dt): return Node("dtensor", shape, dt)
def get_comm_ctx(t): return Node("get_comm_ctx", t)
def rank(ctx): return Node("rank", ctx)
def dims(*d): return Node("dims", *d)
def notify(sig, peer, offsets, value): return Node("notify", sig, peer, offsets, value)
'''
PY_DSL = """f = Func("k")
sig = f.in_out("signal", distributed_tensor(dims(4, 1), "INT32"))
ctx = f.let("ctx", get_comm_ctx(sig))
for i in range(20):
    me = f.let(f"me{i}", rank(ctx))
    f.do(notify(sig, me, dims(0, 0), 1))
len(f.body)"""

KERNELS = [
    ("ptorepl", os.environ.get("PTOREPL_KERNEL_NAME", "ptorepl-test"), GO_SETUP, GO_DSL),
    ("ipykernel", "python3", PY_SETUP, PY_DSL),
]
CELLS = [("trivial", "2"), ("dsl", "42")]  # name, the result it must show


def roundtrip(kc, code, want):
    """Runs code; returns seconds from send to having both reply and idle."""
    t0 = time.perf_counter()
    msg_id = kc.execute(code)
    while True:
        reply = kc.get_shell_msg(timeout=TIMEOUT)
        if reply["parent_header"].get("msg_id") == msg_id:
            break
    result = None
    while True:
        m = kc.get_iopub_msg(timeout=TIMEOUT)
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        if m["msg_type"] == "execute_result":
            result = m["content"]["data"].get("text/plain")
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            break
    dt = time.perf_counter() - t0
    if reply["content"]["status"] != "ok":
        raise SystemExit("FAIL: %r: %s" % (code[:40], reply["content"]))
    if want is not None and result != want:
        raise SystemExit("FAIL: %r gave %r, want %r" % (code[:40], result, want))
    return dt


def main():
    clients = []
    try:
        for label, name, setup, dsl in KERNELS:
            km, kc = start_new_kernel(kernel_name=name, startup_timeout=TIMEOUT)
            clients.append((label, km, kc, dsl))
            roundtrip(kc, setup, None)
        samples = {(label, cell): [] for label, *_ in clients for cell, _ in CELLS}
        for r in range(WARMUP + ROUNDS):
            for label, km, kc, dsl in clients:
                for cell, want in CELLS:
                    code = "1 + 1" if cell == "trivial" else dsl
                    dt = roundtrip(kc, code, want)
                    if r >= WARMUP:
                        samples[(label, cell)].append(dt * 1e3)
        out = {"rounds": ROUNDS}
        for (label, cell), xs in samples.items():
            med = statistics.median(xs)
            out.setdefault(label, {})[cell + "_ms"] = round(med, 3)
            print("%-9s %-7s median %8.3f ms  min %8.3f  max %8.3f  (n=%d)"
                  % (label, cell, med, min(xs), max(xs), len(xs)))
        print(json.dumps(out))
    finally:
        for label, km, kc, dsl in clients:
            kc.stop_channels()
            km.shutdown_kernel(now=False)


if __name__ == "__main__":
    main()
