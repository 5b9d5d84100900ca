//go:build cgo

package pyfront_test

import (
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/pyfront"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// submitCase is a program whose orchestrator launches kernel k with launch
// (a pl.submit or pl.spmd_submit call, unpacked into y, tid).
func submitCase(launch string) string {
	return `import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 16], pl.FP32]]) -> pl.Tensor[[4, 16], pl.FP32]:
        return pl.store(pl.load(x, [0, 0], [4, 16]), [0, 0], y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 16], pl.FP32]]) -> pl.Tensor[[4, 16], pl.FP32]:
        y, tid = ` + launch + `
        return y
`
}

// kernel wraps statements in a one-function program with a tensor x, an
// output y, a tile t and a signal window sig.
func kernel(body string) string {
	return `import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(x: pl.Tensor[[4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 16], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]]):
        t: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [4, 16], [4, 16], target_memory=pl.Mem.Vec)
` + body
}

// inlineCase is a module with the @pl.inline helper def before the kernel
// of kernel(), whose body binds u to call.
func inlineCase(def, call string) string {
	return "import pypto.language as pl\n\n@pl.inline\n" + def + "\n" +
		strings.TrimPrefix(kernel("        u = "+call+"\n"), "import pypto.language as pl\n")
}

// badInputs are inputs the reader must reject with one positioned message.
var badInputs = []struct{ name, src string }{
	{"syntax_unclosed_paren", "import pypto.language as pl\nx = pl.dynamic(\"N\"\n"},
	{"syntax_missing_colon", kernel("        for i in pl.range(4)\n            pass\n")},
	{"syntax_extra_paren", kernel("        u = pl.tile.add(t, t))\n")},
	{"syntax_unclosed_call_then_statement", kernel("        u = pl.tile.add(t, t\n        v = 1\n")},
	{"syntax_wrong_closer", kernel("        u = pl.tile.add(t, t]\n")},
	{"syntax_double_equals_sign", kernel("        u = = 3\n")},
	{"syntax_dangling_operator", kernel("        u = 3 +\n")},
	{"syntax_dangling_dot", kernel("        u = t.\n")},
	{"syntax_if_without_colon", kernel("        if x\n            pass\n")},
	{"syntax_unindent", kernel("      u = 1\n")},
	{"syntax_unexpected_indent", kernel("            u = 1\n")},
	{"syntax_unterminated_string", kernel("        u = \"abc\n")},
	{"syntax_empty_argument", kernel("        u = pl.tile.add(t, , t)\n")},
	{"syntax_missing_comma", kernel("        u = pl.tile.add(t t)\n")},
	{"syntax_keyword_as_name", kernel("        for in pl.range(3):\n            pass\n")},
	{"syntax_else_without_if", kernel("        else:\n            pass\n")},
	{"syntax_class_without_colon", "import pypto.language as pl\n@pl.program\nclass P\n    pass\n"},
	{"syntax_unclosed_parameters", "import pypto.language as pl\n@pl.program\nclass P:\n    @pl.function\n    def f(self, x: pl.Tensor[[4], pl.FP32]:\n        pass\n"},
	{"syntax_two_statements_one_line", kernel("        pass pass\n")},
	{"syntax_missing_parameter_close", "def f(:\n    pass\n"},
	{"unknown_op", kernel("        u: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.lod(x, [0, 0], [4, 16], [4, 16])\n")},
	{"unknown_dist_op", kernel("        pld.system.notfy(sig, 1, [0, 0], pl.const(1, pl.INT32), op=0)\n")},
	{"unknown_call", kernel("        u = numpy.zeros(4)\n")},
	{"wrong_arity", kernel("        u: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0])\n")},
	{"wrong_kwarg", kernel("        u: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [4, 16], [4, 16], target_mem=pl.Mem.Vec)\n")},
	{"get_byte_unknown_dtype", kernel("        n = pl.FP33.get_byte()\n")},
	{"get_byte_with_argument", kernel("        n = pl.FP32.get_byte(2)\n")},
	{"inline_keyword_argument", inlineCase("def twice(t):\n    return pl.add(t, t)\n", "twice(t=t)")},
	{"inline_wrong_arity", inlineCase("def twice(t):\n    return pl.add(t, t)\n", "twice(t, t)")},
	{"inline_no_return", inlineCase("def nothing(t):\n    pass\n", "nothing(t)")},
	{"inline_return_not_last", inlineCase("def early(t):\n    return t\n    pass\n", "early(t)")},
	{"inline_return_in_if", inlineCase("def pick(t):\n    if 1 > 0:\n        return t\n    return t\n", "pick(t)")},
	{"inline_recursion", inlineCase("def again(t):\n    return again(t)\n", "again(t)")},
	{"wrong_kwarg_kind", kernel("        pld.system.notify(sig, 1, [0, 0], pl.const(1, pl.INT32), op=pl.FP32)\n")},
	{"keyword_repeated", kernel("        pld.system.wait(sig, offsets=[0, 0], offsets=[1, 0], expected=pl.const(1, pl.INT32), cmp=1)\n")},
	{"bad_types_tile_plus_tensor", kernel("        u: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.add(t, x)\n")},
	{"bad_types_scalar_op_on_tile", kernel("        u = t + 1\n")},
	{"bad_types_if_condition", kernel("        if t:\n            pass\n")},
	{"unsupported_while_else", kernel("        while True:\n            pass\n        else:\n            pass\n")},
	{"break_outside_loop", kernel("        break\n")},
	{"while_condition_not_bool", kernel("        while t:\n            pass\n")},
	{"unsupported_augmented_assignment", kernel("        n: pl.Scalar[pl.INDEX] = 0\n        n += 1\n")},
	{"unsupported_lambda", kernel("        f = lambda a: a\n")},
	{"unsupported_list_comprehension", kernel("        s = [i for i in pl.range(4)]\n")},
	{"unsupported_python_range", kernel("        for i in range(4):\n            pass\n")},
	{"unsupported_tuple_assignment", kernel("        a, b = t, t\n")},
	{"unpack_count", `import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def pair(self, x: pl.Tensor[[4], pl.FP32]) -> tuple[pl.Tensor[[4], pl.FP32], pl.Tensor[[4], pl.FP32]]:
        return x, x
    @pl.function(type=pl.FunctionType.Orchestration)
    def o(self, x: pl.Tensor[[4], pl.FP32]):
        a, b, c = self.pair(x)
`},
	{"unpack_target_not_a_name", `import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def pair(self, x: pl.Tensor[[4], pl.FP32]) -> tuple[pl.Tensor[[4], pl.FP32], pl.Tensor[[4], pl.FP32]]:
        return x, x
    @pl.function(type=pl.FunctionType.Orchestration)
    def o(self, x: pl.Tensor[[4], pl.FP32]):
        a, b[0] = self.pair(x)
`},
	{"unsupported_chained_comparison", kernel("        for i in pl.range(4):\n            if 0 < i < 3:\n                pass\n")},
	{"undefined_name", kernel("        u = pl.tile.add(t, v)\n")},
	{"unknown_dtype", kernel("        c: pl.Scalar[pl.INT32] = pl.const(1, pl.INT33)\n")},
	{"yield_outside_loop", kernel("        v: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.yield_(t)\n")},
	{"yield_as_value", kernel("        u = pl.tile.add(t, pl.yield_(t))\n")},
	{"range_outside_for", kernel("        r = pl.range(4)\n")},
	{"parameter_without_type", "import pypto.language as pl\n\n@pl.program\nclass P:\n    @pl.function\n    def f(self, x):\n        return x\n"},
	{"unknown_decorator_kwarg", "import pypto.language as pl\n\n@pl.program\nclass P:\n    @pl.function(kind=pl.FunctionType.InCore)\n    def f(self):\n        pass\n"},
	{"method_without_decorator", "import pypto.language as pl\n\n@pl.program\nclass P:\n    def f(self):\n        pass\n"},
	{"missing_self_function", "import pypto.language as pl\n\n@pl.program\nclass P:\n    @pl.function\n    def f(self):\n        self.g()\n"},
	{"cast_without_dtype", kernel("        c = pl.cast(t)\n")},
	{"float_shape", kernel("        u: pl.Tile[[4.5, 16], pl.FP32] = t\n")},
	{"yield_branches_disagree", kernel("        for i, (a,) in pl.range(4, init_values=(t,)):\n            if i == 0:\n                b: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.yield_(a)\n            else:\n                c: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.yield_(a)\n            a2: pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec] = pl.yield_(a)\n")},
	{"unevaluable_constant_used", "import pypto.language as pl\nimport torch\n\nN = torch.zeros(3).numel()\n\n@pl.jit.incore\ndef k(x: pl.Tensor[[N, 4], pl.FP32]):\n    return x\n\n@pl.jit.host\ndef h(x: pl.Tensor[[2, N, 4], pl.FP32]):\n    for r in pl.range(2):\n        k(x[r], device=r)\n"},
	{"jit_unknown_keyword", "import pypto.language as pl\nimport pypto.language.distributed as pld\n\n@pl.jit.incore\ndef k(s: pld.DistributedTensor[[2, 1], pl.INT32]):\n    pld.system.wait(s, offsets=[0, 0], expected=1, compare=pld.WaitCmp.Ge)\n\n@pl.jit.host\ndef h():\n    b = pld.alloc_window_buffer([2, 1], dtype=pl.INT32)\n    for r in pl.range(2):\n        s = pld.window(b, [2, 1], dtype=pl.INT32)\n        k(s, device=r)\n"},
	{"alloc_outside_host", kernel("        b = pld.tensor.alloc_window_buffer(64)\n")},
	{"slice_step", kernel("        u = x[0:4:2, 0:16]\n")},
	{"slice_too_many_indices", kernel("        u = x[0:2, 0:4, 1]\n")},
	{"slice_empty", kernel("        u = x[2:2, 0:16]\n")},
	{"slice_past_the_edge", kernel("        u = x[2:6, 0:16]\n")},
	{"slice_valid_past_the_edge", kernel("        u = pl.slice(x, [8, 16], [0, 0], valid_shape=[5, 16])\n")},
	{"slice_valid_wider_than_window", kernel("        u = pl.slice(x, [2, 16], [0, 0], valid_shape=[3, 16])\n")},
	{"subscript_write_element", kernel("        y[0, 1] = x\n")},
	{"subscript_write_shape", kernel("        y[0:2, 0:16] = x\n")},
	{"subscript_write_tile_source", kernel("        y[0:4, 0:16] = t\n")},
	{"subscript_write_scalar_index", kernel("        y[1, 0:16] = x[1, 0:16]\n")},
	{"with_task_id_of_cluster", kernel("        with pl.cluster() as tid:\n            pass\n")},
	{"submit_not_a_function", kernel("        u = pl.submit(pl.add, x)\n")},
	{"array_of_floats", kernel("        a = pl.array.create(4, pl.FP32)\n")},
	{"array_two_indices", kernel("        a = pl.array.create(4, pl.TASK_ID)\n        a[0, 1] = pl.system.task_invalid()\n")},
	{"with_other_scope", kernel("        with pl.incore():\n            pass\n")},
	{"manual_scope_args", kernel("        with pl.manual_scope(True):\n            pass\n")},
	{"with_python_context", kernel("        with open(\"f\"):\n            pass\n")},
	{"with_no_level", kernel("        with pl.at(name_hint=\"k\"):\n            pass\n")},
	{"with_core_group_role", kernel("        with pl.at(level=pl.Level.CORE_GROUP, role=pl.Role.Orchestrator):\n            pass\n")},
	{"with_deps", kernel("        with pl.at(level=pl.Level.CORE_GROUP, deps=[x]):\n            pass\n")},
	{"with_bad_name_hint", kernel("        with pl.at(level=pl.Level.CORE_GROUP, name_hint=\"2k\"):\n            pass\n")},
	{"spmd_zero_blocks", kernel("        with pl.spmd(0):\n            i = pl.tile.get_block_idx()\n")},
	{"spmd_idle_body", kernel("        with pl.spmd(4):\n            u = pl.tile.add(t, t)\n")},
	{"spmd_two_counts", kernel("        for i in pl.spmd(2, 4):\n            pass\n")},
	{"spmd_loop_tuple", kernel("        for i, j in pl.spmd(2):\n            pass\n")},
	{"spmd_deps", kernel("        with pl.spmd(2, deps=[x]):\n            i = pl.tile.get_block_idx()\n")},
	{"jit_bare_tensor_unsized", "import pypto.language as pl\n\n@pl.jit\ndef f(a: pl.Tensor, c: pl.Out[pl.Tensor]):\n    return c\n"},
	{"jit_bare_tensor_unknown_ctor", "import pypto.language as pl\nimport torch\n\n@pl.jit\ndef f(a: pl.Tensor):\n    pass\n\nif __name__ == \"__main__\":\n    a = torch.load(\"a.pt\")\n    f(a)\n"},
	{"with_two_items", kernel("        with pl.at(level=pl.Level.CORE_GROUP), pl.at(level=pl.Level.CHIP):\n            pass\n")},
	{"relative_import_in_text", "import pypto.language as pl\nfrom .config import SIZE\n"},
	{"imported_torch_name_used", "import pypto.language as pl\nfrom torch import float32\n" + strings.TrimPrefix(kernel("        u = pl.cast(t, target_type=float32)\n"), "import pypto.language as pl\n")},
	{"random_rounds", kernel("        r = pl.tile.random(1, 2, 3, 4, 5, 6, [4, 16], rounds=8)\n")},
	{"random_seed_too_wide", kernel("        r = pl.tile.random(0xA4093822, 2, 3, 4, 5, 6, [4, 16])\n")},
	{"reinterpret_bad_width", kernel("        r = pl.reinterpret_view(pl.tile.slice(t, [4, 3], [0, 0]), pl.INT64)\n")},
	{"matmul_acc_wrong_acc", kernel("        a = pl.matmul_acc(x, x, x)\n")},
	{"split_aiv_lanes", kernel("        for aiv_id in pl.split_aiv(4, mode=pl.SplitMode.UP_DOWN):\n            pass\n")},
	{"split_aiv_no_mode", kernel("        for aiv_id in pl.split_aiv(2):\n            pass\n")},
	{"aiv_shard_outside_region", kernel("        h = pl.tile.aiv_shard(t)\n")},
	{"aiv_shard_split_in_region", kernel("        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):\n            h = pl.tile.aiv_shard(t, split=1)\n")},
	{"gather_row_runtime_window", kernel("        n = pl.tile.get_block_idx()\n        kv = pl.create_l1([4, 16], pl.FP32)\n        kv = pl.gather_row(kv, x, [0, 0], [0, 0], [n, 16])\n")},
	{"syncall_soft_no_workspace", kernel("        pl.system.syncall(mode=\"soft\")\n")},
	{"syncall_bad_core_type", kernel("        pl.system.syncall(core_type=\"cube\")\n")},
	{"sync_wait_no_pipe", kernel("        pl.system.sync_wait(4, core_type=\"aic\")\n")},
	{"sync_set_bad_core_type", kernel("        pl.system.sync_set(4, pipe=pl.PipeType.MTE3, core_type=\"cube\")\n")},
	{"submit_dumps_not_an_argument", "import pypto.language as pl\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n    def k(self, x: pl.Tensor[[4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 16], pl.FP32]]) -> pl.Tensor[[4, 16], pl.FP32]:\n        return pl.store(pl.load(x, [0, 0], [4, 16]), [0, 0], y)\n\n    @pl.function(type=pl.FunctionType.Orchestration)\n    def main(self, x: pl.Tensor[[4, 16], pl.FP32], z: pl.Tensor[[4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 16], pl.FP32]]) -> pl.Tensor[[4, 16], pl.FP32]:\n        y, t = pl.submit(self.k, x, y, dumps=[z])\n        return y\n"},
	{"paged_gather_missing_size", kernel("        g = pl.paged_gather(x, x, x, block_size=4, max_indices=4)\n")},
	{"tpop_unannotated", kernel("        r = pl.tpop_from_aiv(split=0)\n")},
	{"tpop_tensor_annotation", kernel("        r: pl.Tensor[[4, 16], pl.FP32] = pl.tpop_from_aic(split=0)\n")},
	{"prefetch_2d_region", kernel("        ctx = pl.prefetch.make_context()\n        evt = pl.prefetch.async_prefetch(x, ctx)\n")},
	{"prefetch_inline_slice", kernel("        ctx = pl.prefetch.make_context()\n        evt = pl.prefetch.async_prefetch(pl.slice(x, [1, 16], [0, 0]), ctx)\n")},
	{"jit_bare_window_unsized", "import pypto.language as pl\nimport pypto.language.distributed as pld\n\n@pl.jit\ndef f(data: pl.InOut[pld.DistributedTensor]):\n    pass\n"},
	{"scope_auto_without_auto_scope_off", "import pypto.language as pl\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.Orchestration)\n    def main(self, x: pl.Tensor[[4, 16], pl.FP32]):\n        with pl.scope():\n            pass\n"},
	{"scope_manual_in_manual", "import pypto.language as pl\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.Orchestration)\n    def main(self, x: pl.Tensor[[4, 16], pl.FP32]):\n        with pl.manual_scope():\n            with pl.scope(mode=pl.ScopeMode.MANUAL):\n                pass\n"},
	{"scope_auto_in_manual", "import pypto.language as pl\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)\n    def main(self, x: pl.Tensor[[4, 16], pl.FP32]):\n        with pl.manual_scope():\n            with pl.scope():\n                pass\n"},
	{"scope_bad_keyword", "import pypto.language as pl\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)\n    def main(self, x: pl.Tensor[[4, 16], pl.FP32]):\n        with pl.scope(kind=pl.ScopeMode.AUTO):\n            pass\n"},
	{"scope_auto_scope_call", "import pypto.language as pl\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.Orchestration)\n    def main(self, x: pl.Tensor[[4, 16], pl.FP32]):\n        with pl.auto_scope():\n            pass\n"},
	{"tensor_dn_shorthand", "import pypto.language as pl\n\n@pl.program\nclass P:\n    @pl.function\n    def k(self, x: pl.Tensor[[64, 32], pl.FP32, pl.DN]):\n        pass\n"},
	{"tensor_remote_store_of_tile", "import pypto.language as pl\nimport pypto.language.distributed as pld\n\n@pl.program\nclass P:\n    @pl.function\n    def k(self, data: pld.DistributedTensor[[64, 32], pl.FP16], peer: pl.Scalar[pl.INT32]):\n        t = pld.tile.remote_load(data, peer=peer, offsets=[0, 0], shape=[32, 16])\n        pld.tensor.remote_store(t, data, peer, [0, 0])\n"},
	{"prefetch_session_of_event", "import pypto.language as pl\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n    def k(self, a: pl.Tensor[[64], pl.FP32]):\n        ctx = pl.prefetch.make_context()\n        evt = pl.prefetch.async_prefetch(a, ctx)\n        pl.prefetch.wait(evt, ctx)\n"},
	{"tpush_to_aic_odd_split", kernel("        pl.tpush_to_aic(t, split=3)\n")},
	{"initialize_pipe_no_slot_size", kernel("        pl.aiv_initialize_pipe(dir_mask=2)\n")},
	{"predicate_not_a_comparison", submitCase("pl.submit(self.k, x, y, predicate=(x[0, 0] + 1))")},
	{"predicate_two_reads", submitCase("pl.submit(self.k, x, y, predicate=(x[0, 0] > x[1, 0]))")},
	{"spmd_submit_no_core_num", submitCase("pl.spmd_submit(self.k, x, y)")},
	{"spmd_predicate_float", submitCase("pl.submit(self.k, x, y, predicate=(x[0, 0] > 0.5))")},
	{"high_precision_scalar_rhs", kernel("        u = pl.div(t, 2.0, high_precision=True)\n")},
	{"high_precision_integer", kernel("        i = pl.tile.cast(t, target_type=pl.INT32)\n        u = pl.tile.div(i, i, high_precision=True)\n")},
	{"high_precision_not_bool", kernel("        u = pl.tile.log(t, high_precision=1.5)\n")},
	{"comprehension_unbounded", "import pypto.language as pl\nX = [a for a in range(60000) for b in range(60000)]\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n    def k(self, x: pl.Tensor[[X[0], 4], pl.FP32]) -> pl.Tensor[[X[0], 4], pl.FP32]:\n        return x\n"},
	{"no_dep_as_value", submitCase("pl.submit(self.k, x, y)\n        z = pl.no_dep(x)")},
	{"no_dep_two_args", submitCase("pl.submit(self.k, pl.no_dep(x, y), y)")},
	{"no_dep_args_not_list", noDepRegion("no_dep_args=x")},
	{"no_dep_args_not_name", noDepRegion("no_dep_args=[x[0:2, :]]")},
	{"no_dep_args_scalar", noDepRegion("no_dep_args=[n]")},
	{"no_dep_args_twice", noDepRegion("no_dep_args=[x, x]")},
	{"call_undefined_kernel", submitCase("pl.submit(self.k, x, y)\n        per_rank_get(x, y)")},
	{"call_builtin", submitCase("pl.submit(self.k, x, y)\n        sorted(x)")},
	{"dumps_not_names", noDepRegion("dumps=[x, 1]")},
	{"dump_tag_expression", submitCase("pl.submit(self.k, x, y)\n        pl.dump_tag(pl.add(x, x))")},
	{"windowize_not_bool", noDepRegion("windowize=1")},
	{"windowize_on_chip", "import pypto.language as pl\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.Orchestration)\n    def main(self, x: pl.Tensor[[4, 16], pl.FP32]):\n        with pl.at(level=pl.Level.CHIP, role=pl.Role.Orchestrator, windowize=True):\n            pass\n"},
	{"parametrize_set_arity", parametrized(`@pytest.mark.parametrize("rows,cols", [(4, 8), (4,)])`)},
	{"parametrize_param_arity", parametrized(`@pytest.mark.parametrize("rows,cols", [pytest.param(4, id="four")])`)},
	{"parametrize_names_not_strings", parametrized(`@pytest.mark.parametrize(4, [(4, 8)])`)},
	{"parametrize_indirect", parametrized(`@pytest.mark.parametrize("rows,cols", [(4, 8)], indirect=True)`)},
}

// noDepRegion is an orchestration with an InCore region whose pl.at
// takes kwarg (no_dep_args=, dumps=, windowize=).
func noDepRegion(kwarg string) string {
	return `import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[4, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 16], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[4, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, ` + kwarg + `):
            y = pl.store(pl.load(x, [0, 0], [4, 16]), [0, 0], y)
        return y
`
}

// parametrized is a pytest test under mark that builds a program from its
// rows and cols.
func parametrized(mark string) string {
	return `import pypto.language as pl
import pytest

def build(rows, cols):
    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.InCore)
        def k(self, x: pl.Tensor[[rows, cols], pl.FP32], y: pl.Out[pl.Tensor[[rows, cols], pl.FP32]]) -> pl.Tensor[[rows, cols], pl.FP32]:
            return pl.store(pl.load(x, [0, 0], [rows, cols]), [0, 0], y)
    return P

` + mark + `
def test_build(rows, cols):
    build(rows, cols)
`
}

// TestErrorCorpus: each bad input gives exactly the golden message (from
// reading the file, or from building the entry it breaks), with
// its case.py:line:col position, as a *pyfront.Error (never an internal
// error).
func TestErrorCorpus(t *testing.T) {
	var got strings.Builder
	for _, c := range badInputs {
		mod, err := pyfront.Parse("case.py", []byte(c.src))
		if err == nil {
			// A jit entry that cannot be built fails alone: its error
			// comes from Program.
			for _, n := range append(mod.Names(), mod.Tests()...) {
				if mod.IsFactory(n) {
					continue
				}
				if _, err = mod.Program(n); err != nil {
					break
				}
			}
		}
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		var pe *pyfront.Error
		if !errors.As(err, &pe) || strings.Contains(err.Error(), "internal error") {
			t.Errorf("%s: not a positioned reading error: %v", c.name, err)
		}
		if strings.Count(err.Error(), "case.py:") != 1 {
			t.Errorf("%s: want one position, got %q", c.name, err)
		}
		got.WriteString(c.name + "\n    " + err.Error() + "\n")
	}
	path := filepath.Join("testdata", "errors.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Fatalf("messages differ from %s (rerun with -update and review):\n%s", path, firstDiff(string(want), got.String()))
	}
	if len(badInputs) < 20 {
		t.Fatalf("the corpus has %d cases, want at least 20", len(badInputs))
	}
}

// TestFactoryBodyErrors: a factory's body runs when it is called; what it
// cannot compute there is one positioned message from Call.
func TestFactoryBodyErrors(t *testing.T) {
	for _, c := range []struct{ name, stmt, want string }{
		{"if on a program value", "    if pl.dynamic(\"N\"):\n        pass\n",
			"case.py:4:8: factory build: an if condition must be a value known when the factory runs (a bool, number or string), given pl.dynamic(\"N\")"},
		{"min of a program value", "    m = min(n, pl.dynamic(\"N\"))\n",
			"case.py:4:16: min: expected integers known before the program runs, given"},
	} {
		src := "import pypto.language as pl\n\ndef build(n: int):\n" + c.stmt + `
    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.InCore)
        def k(self, x: pl.Tensor[[4], pl.FP32]):
            pass

    return P
`
		mod, err := pyfront.Parse("case.py", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, err = mod.Call("build", 4)
		var pe *pyfront.Error
		if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// A program of the file that cannot be built fails alone: the others still
// open, and Program of the bad one is its positioned error.
func TestOneBadProgramFailsAlone(t *testing.T) {
	src := `import pypto.language as pl

@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[1, 8], pl.FP32]):
        t = pl.tile.nope(x)

@pl.program
class Good:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[1, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]]):
        t: pl.Tile[[1, 8], pl.FP32] = pl.load(x, [0, 0], [1, 8])
        y = pl.store(t, [0, 0], y)
        return y

@pl.function(type=pl.FunctionType.InCore)
def lone(x: pl.Tensor[[1, 8], pl.FP32]):
    pl.nope()
`
	mod, err := pyfront.Parse("two.py", []byte(src))
	if err != nil {
		t.Fatalf("one bad program failed the file: %v", err)
	}
	if got, want := strings.Join(mod.Names(), ","), "Bad,Good,lone"; got != want {
		t.Fatalf("names %s, want %s", got, want)
	}
	if _, err := mod.Program("Good"); err != nil {
		t.Fatalf("the good program: %v", err)
	}
	for name, want := range map[string]string{"Bad": "two.py:7:13: unknown op pl.tile.nope", "lone": "two.py:19:5: unknown op pl.nope"} {
		_, err := mod.Program(name)
		var pe *pyfront.Error
		if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: got %v, want %s...", name, err, want)
		}
	}
}

// The names the reader takes for Python's built-ins (a call of one is
// unsupported, not undefined) are all built-ins of Debian's Python.
func TestPythonBuiltinsAreBuiltins(t *testing.T) {
	names := pyfront.PythonBuiltins()
	cmd := exec.Command("/usr/bin/python3", append([]string{"-c", "import builtins, sys\nfor n in sys.argv[1:]:\n    if not callable(getattr(builtins, n, None)): print(n)"}, names...)...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	if s := strings.TrimSpace(string(out)); s != "" {
		t.Fatalf("not Python built-in functions: %s", s)
	}
}
