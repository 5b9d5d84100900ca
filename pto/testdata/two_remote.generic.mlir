"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !pto.ptr<f16>, %arg1: !pto.ptr<i32>, %arg2: i32, %arg3: !pto.ptr<i64>, %arg4: !pto.ptr<i64>):
    %c0_index = "arith.constant"() {value = 0 : index} : () -> index
    %c1_index = "arith.constant"() {value = 1 : index} : () -> index
    %c2_index = "arith.constant"() {value = 2 : index} : () -> index
    %c16_index = "arith.constant"() {value = 16 : index} : () -> index
    %c64_index = "arith.constant"() {value = 64 : index} : () -> index
    %c0_i64 = "arith.constant"() {value = 0 : i64} : () -> i64
    %c1_i32 = "arith.constant"() {value = 1 : i32} : () -> i32
    %peer_idx = "arith.index_cast"(%arg2) : (i32) -> index
    %0 = "func.call"(%arg3, %peer_idx) {callee = @CommRemoteOffset_f16} : (!pto.ptr<i64>, index) -> index
    %1 = "pto.addptr"(%arg0, %0) : (!pto.ptr<f16>, index) -> !pto.ptr<f16>
    %2 = "pto.make_tensor_view"(%1, %c16_index, %c64_index, %c64_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f16>, index, index, index, index) -> !pto.tensor_view<?x?xf16>
    %data_peer_pview = "pto.partition_view"(%2, %c0_index, %c0_index, %c16_index, %c64_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf16>, index, index, index, index) -> !pto.partition_tensor_view<16x64xf16>
    %a = "pto.alloc_tile"(%c0_i64) {operand_segment_sizes = array<i32: 1, 0, 0>} : (i64) -> !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    "pto.tload"(%data_peer_pview, %a) : (!pto.partition_tensor_view<16x64xf16>, !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
    %3 = "arith.index_cast"(%arg2) : (i32) -> index
    %4 = "func.call"(%arg3, %3) {callee = @CommRemoteOffset_f16} : (!pto.ptr<i64>, index) -> index
    %5 = "pto.addptr"(%arg0, %4) : (!pto.ptr<f16>, index) -> !pto.ptr<f16>
    %6 = "pto.make_tensor_view"(%5, %c16_index, %c64_index, %c64_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f16>, index, index, index, index) -> !pto.tensor_view<?x?xf16>
    %7 = "pto.partition_view"(%6, %c0_index, %c0_index, %c16_index, %c64_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf16>, index, index, index, index) -> !pto.partition_tensor_view<16x64xf16>
    "pto.tstore"(%a, %7) : (!pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.partition_tensor_view<16x64xf16>) -> ()
    "pto.cmo.cacheinvalid"(%7) {mode = #pto<cache_line single_cache_line>} : (!pto.partition_tensor_view<16x64xf16>) -> ()
    %8 = "arith.index_cast"(%arg2) : (i32) -> index
    %9 = "func.call"(%arg4, %8) {callee = @CommRemoteOffset_i32} : (!pto.ptr<i64>, index) -> index
    %10 = "pto.addptr"(%arg1, %9) : (!pto.ptr<i32>, index) -> !pto.ptr<i32>
    %11 = "pto.make_tensor_view"(%10, %c2_index, %c1_index, %c1_index, %c2_index) {layout = #pto.layout<dn>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<?x?xi32>
    %signal_peer_pview = "pto.partition_view"(%11, %c0_index, %c0_index, %c1_index, %c1_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xi32>, index, index, index, index) -> !pto.partition_tensor_view<1x1xi32>
    "pto.barrier"() {pipe = #pto<pipe PIPE_ALL>} : () -> ()
    "pto.comm.tnotify"(%signal_peer_pview, %c1_i32) {notifyOp = #pto<notify_op set>} : (!pto.partition_tensor_view<1x1xi32>, i32) -> ()
    "func.return"() : () -> ()
  }) {function_type = (!pto.ptr<f16>, !pto.ptr<i32>, i32, !pto.ptr<i64>, !pto.ptr<i64>) -> (), sym_name = "two_remote"} : () -> ()

  "func.func"() ({
  ^bb0(%ctx: !pto.ptr<i64>, %peer: index):
    %c_r = "arith.constant"() {value = 2 : index} : () -> index
    %c_w = "arith.constant"() {value = 4 : index} : () -> index
    %rk_pair = "pto.load_scalar"(%ctx, %c_r) : (!pto.ptr<i64>, index) -> i64
    %rk_i32 = "arith.trunci"(%rk_pair) : (i64) -> i32
    %rk_idx = "arith.index_cast"(%rk_i32) : (i32) -> index
    %lb_off = "arith.addi"(%c_w, %rk_idx) : (index, index) -> index
    %lbase = "pto.load_scalar"(%ctx, %lb_off) : (!pto.ptr<i64>, index) -> i64
    %pb_off = "arith.addi"(%c_w, %peer) : (index, index) -> index
    %pbase = "pto.load_scalar"(%ctx, %pb_off) : (!pto.ptr<i64>, index) -> i64
    %dbytes = "arith.subi"(%pbase, %lbase) : (i64, i64) -> i64
    %esize = "arith.constant"() {value = 2 : i64} : () -> i64
    %delems_i = "arith.divsi"(%dbytes, %esize) : (i64, i64) -> i64
    %delems = "arith.index_cast"(%delems_i) : (i64) -> index
    "func.return"(%delems) : (index) -> ()
  }) {function_type = (!pto.ptr<i64>, index) -> index, sym_name = "CommRemoteOffset_f16", sym_visibility = "private"} : () -> ()

  "func.func"() ({
  ^bb0(%ctx: !pto.ptr<i64>, %peer: index):
    %c_r = "arith.constant"() {value = 2 : index} : () -> index
    %c_w = "arith.constant"() {value = 4 : index} : () -> index
    %rk_pair = "pto.load_scalar"(%ctx, %c_r) : (!pto.ptr<i64>, index) -> i64
    %rk_i32 = "arith.trunci"(%rk_pair) : (i64) -> i32
    %rk_idx = "arith.index_cast"(%rk_i32) : (i32) -> index
    %lb_off = "arith.addi"(%c_w, %rk_idx) : (index, index) -> index
    %lbase = "pto.load_scalar"(%ctx, %lb_off) : (!pto.ptr<i64>, index) -> i64
    %pb_off = "arith.addi"(%c_w, %peer) : (index, index) -> index
    %pbase = "pto.load_scalar"(%ctx, %pb_off) : (!pto.ptr<i64>, index) -> i64
    %dbytes = "arith.subi"(%pbase, %lbase) : (i64, i64) -> i64
    %esize = "arith.constant"() {value = 4 : i64} : () -> i64
    %delems_i = "arith.divsi"(%dbytes, %esize) : (i64, i64) -> i64
    %delems = "arith.index_cast"(%delems_i) : (i64) -> index
    "func.return"(%delems) : (index) -> ()
  }) {function_type = (!pto.ptr<i64>, index) -> index, sym_name = "CommRemoteOffset_i32", sym_visibility = "private"} : () -> ()
}) {pto.target_arch = "a2a3"} : () -> ()
