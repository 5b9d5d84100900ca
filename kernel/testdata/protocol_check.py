"""Protocol behaviour beyond the conformance suite, driven by jupyter_client:
interrupts, signature checking, stop_on_error, silent execution, rich
results, shutdown. Prints one line per check; exits non-zero on failure."""
import os
import sys
import time
import queue

from jupyter_client.manager import start_new_kernel

name = os.environ.get("PTOREPL_KERNEL_NAME", "ptorepl-test")
km, kc = start_new_kernel(kernel_name=name)
failures = []


def check(label, cond, detail=""):
    print(("ok   " if cond else "FAIL ") + label + ("" if cond else ": " + str(detail)))
    if not cond:
        failures.append(label)


def run(code, **kw):
    msg_id = kc.execute(code, **kw)
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
    return reply, outputs


try:
    # Interrupt a running infinite loop, then keep working.
    msg_id = kc.execute("for {}")
    time.sleep(0.5)
    t0 = time.time()
    km.interrupt_kernel()
    reply = kc.get_shell_msg(timeout=10)
    check("interrupt stops `for {}`", reply["content"]["status"] == "error" and time.time() - t0 < 5, reply["content"])
    check("interrupted cell reports KeyboardInterrupt", reply["content"].get("ename") == "KeyboardInterrupt", reply["content"])
    reply, outs = run("1 + 1")
    res = [m for m in outs if m["msg_type"] == "execute_result"]
    check("kernel usable after interrupt", res and res[0]["content"]["data"]["text/plain"] == "2", outs)

    # Output order: busy, execute_input, stream, idle, all parented.
    reply, outs = run('fmt.Println("a")\nfmt.Println("b")')
    kinds = [m["msg_type"] for m in outs]
    check("iopub order busy/execute_input/stream", kinds[:3] == ["status", "execute_input", "stream"], kinds)
    text = "".join(m["content"]["text"] for m in outs if m["msg_type"] == "stream")
    check("stream text", text == "a\nb\n", text)

    # A message with a bad signature is dropped and never executed.
    session = kc.session
    good_key = session.key
    session.key = b"not-the-key"
    kc.execute("tampered := 99")
    session.key = good_key
    try:
        kc.get_shell_msg(timeout=2)
        check("bad signature gets no reply", False, "a reply arrived")
    except queue.Empty:
        check("bad signature gets no reply", True)
    reply, outs = run("tampered")
    check("bad-signature cell was not executed", reply["content"]["status"] == "error", reply["content"])

    # stop_on_error aborts requests queued behind a failing cell.
    # The failing cell sleeps first so that the second request is surely queued
    # while it runs, however loaded the machine is.
    a = kc.execute('time.Sleep(500 * time.Millisecond)\npanic("first")')
    b = kc.execute("queued := 1")
    replies = {}
    while len(replies) < 2:
        m = kc.get_shell_msg(timeout=20)
        replies[m["parent_header"]["msg_id"]] = m["content"]["status"]
        if m["parent_header"]["msg_id"] == a:
            first_error = m["content"].get("evalue", "")
    check("failing cell errors", replies[a] == "error" and "first" in first_error, (replies, first_error))
    check("queued cell aborted", replies[b] == "aborted", replies)

    # silent: no execute_input and no result on iopub, count unchanged.
    r1, _ = run("7", silent=False)
    r2, outs = run("8", silent=True)
    check("silent publishes no result", not [m for m in outs if m["msg_type"] in ("execute_result", "execute_input")], outs)
    r3, _ = run("9")
    check("silent leaves the execution count", r3["content"]["execution_count"] == r1["content"]["execution_count"] + 1,
          (r1["content"]["execution_count"], r3["content"]["execution_count"]))

    # IR values render as PyPTO text and highlighted HTML.
    reply, outs = run('p := pl.NewProgram("P")\np.InCore("k", func(f *pl.Func) {\n\tf.In("x", pl.Tensor(pl.Dims(1, 8), pl.FP32))\n})\np')
    res = [m for m in outs if m["msg_type"] == "execute_result"]
    check("program result has text and html", res and "class P:" in res[0]["content"]["data"]["text/plain"]
          and "text/html" in res[0]["content"]["data"], outs)

    # Updatable displays carry a display_id.
    reply, outs = run('h := display.NewHandle()\nh.Text("one")\nh.Text("two")')
    kinds = [m["msg_type"] for m in outs]
    check("display handle update", "display_data" in kinds and "update_display_data" in kinds, kinds)
finally:
    kc.shutdown()
    kc.stop_channels()
    deadline = time.time() + 10
    while km.is_alive() and time.time() < deadline:
        time.sleep(0.1)
    check("shutdown ends the kernel process", not km.is_alive())
    if km.is_alive():
        km.shutdown_kernel(now=True)

sys.exit(1 if failures else 0)
