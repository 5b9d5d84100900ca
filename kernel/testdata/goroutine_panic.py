"""A goroutine panic and os.Exit in cells, driven by jupyter_client: the
kernel reports them with the cell line, keeps running, and `1 + 41` then
gives 42. No Go stack trace (`goroutine N [`) appears in any message.
Prints one line per check; exits non-zero on failure."""
import os
import re
import sys
import time

from jupyter_client.manager import start_new_kernel

name = os.environ.get("PTOREPL_KERNEL_NAME", "ptorepl-test")
km, kc = start_new_kernel(kernel_name=name)
failures = []
seen = []


def check(label, cond, detail=""):
    print(("ok   " if cond else "FAIL ") + label + ("" if cond else ": " + str(detail)))
    if not cond:
        failures.append(label)


def run(code):
    msg_id = kc.execute(code)
    reply = kc.get_shell_msg(timeout=20)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = kc.get_shell_msg(timeout=20)
    outputs = []
    while True:
        m = kc.get_iopub_msg(timeout=20)
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            break
        outputs.append(m)
    seen.append(repr(reply["content"]) + repr([o["content"] for o in outputs]))
    return reply, outputs


def stderr(outs):
    return "".join(m["content"]["text"] for m in outs
                   if m["msg_type"] == "stream" and m["content"]["name"] == "stderr")


def result(outs):
    res = [m for m in outs if m["msg_type"] == "execute_result"]
    return res[0]["content"]["data"]["text/plain"] if res else None


try:
    reply, outs = run('go func() { panic("boom") }()\ntime.Sleep(200 * time.Millisecond)')
    check("goroutine panic reported on the running cell", "panic in goroutine: boom" in stderr(outs), outs)
    reply, outs = run("1 + 41")
    check("kernel usable after a goroutine panic", result(outs) == "42", outs)

    reply, outs = run('go func() { time.Sleep(50 * time.Millisecond); panic("late") }()')
    time.sleep(0.3)
    reply, outs = run("1 + 41")
    check("late goroutine panic on the next cell's stderr", "panic in goroutine: late" in stderr(outs), outs)
    check("and the next cell runs", result(outs) == "42", outs)

    reply, outs = run("os.Exit(3)")
    check("os.Exit is an error on its cell", reply["content"]["status"] == "error" and
          "os.Exit(3)" in str(reply["content"]), reply["content"])
    reply, outs = run("1 + 41")
    check("kernel alive after os.Exit", result(outs) == "42", outs)

    check("no Go stack trace in any message",
          not any(re.search(r"goroutine \d+ \[", s) for s in seen), seen)
finally:
    kc.stop_channels()
    km.shutdown_kernel(now=True)

if failures:
    print("FAILED:", ", ".join(failures))
    sys.exit(1)
