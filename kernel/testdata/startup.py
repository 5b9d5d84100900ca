"""Kernel start-up time, measured with jupyter_client.

For each kernel (the ptorepl kernel and ipykernel), alternately, ROUNDS
times: start the kernel process and wait until it answers kernel_info on the
shell channel (jupyter_client's start_new_kernel does both), then shut it
down. Prints per-kernel lines and, last, one JSON line of medians in ms.
"""
import json
import os
import statistics
import time

from jupyter_client.manager import start_new_kernel

ROUNDS = int(os.environ.get("STARTUP_ROUNDS", "10"))
KERNELS = [
    ("ptorepl", os.environ.get("PTOREPL_KERNEL_NAME", "ptorepl-test")),
    ("ipykernel", "python3"),
]

times = {label: [] for label, _ in KERNELS}
for _ in range(ROUNDS):
    for label, name in KERNELS:
        t0 = time.perf_counter()
        km, kc = start_new_kernel(kernel_name=name, startup_timeout=60)
        times[label].append((time.perf_counter() - t0) * 1000)
        kc.stop_channels()
        km.shutdown_kernel(now=True)

result = {label: {"startup_ms": statistics.median(ts)} for label, ts in times.items()}
for label, ts in times.items():
    print(f"{label}: median {statistics.median(ts):.1f} ms, min {min(ts):.1f} ms, max {max(ts):.1f} ms")
print(json.dumps(result))
