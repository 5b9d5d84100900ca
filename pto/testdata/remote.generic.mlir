"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !pto.ptr<f16>, %arg1: !pto.ptr<f16>, %arg2: !pto.ptr<i32>, %arg3: !pto.ptr<f16>, %arg4: i32, %arg5: !pto.ptr<i64>, %arg6: !pto.ptr<i64>, %arg7: !pto.ptr<i64>):
    %c0_index = "arith.constant"() {value = 0 : index} : () -> index
    %c1_index = "arith.constant"() {value = 1 : index} : () -> index
    %c2_index = "arith.constant"() {value = 2 : index} : () -> index
    %c4_index = "arith.constant"() {value = 4 : index} : () -> index
    %c16_index = "arith.constant"() {value = 16 : index} : () -> index
    %c32_index = "arith.constant"() {value = 32 : index} : () -> index
    %c64_index = "arith.constant"() {value = 64 : index} : () -> index
    %c1024_index = "arith.constant"() {value = 1024 : index} : () -> index
    %c0_i64 = "arith.constant"() {value = 0 : i64} : () -> i64
    %c1024_i64 = "arith.constant"() {value = 1024 : i64} : () -> i64
    %c2048_i64 = "arith.constant"() {value = 2048 : i64} : () -> i64
    %c1_i32 = "arith.constant"() {value = 1 : i32} : () -> i32
    %x_view = "pto.make_tensor_view"(%arg3, %c16_index, %c32_index, %c32_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f16>, index, index, index, index) -> !pto.tensor_view<?x?xf16>
    %peer_idx = "arith.index_cast"(%arg4) : (i32) -> index
    %0 = "func.call"(%arg5, %peer_idx) {callee = @CommRemoteOffset_f16} : (!pto.ptr<i64>, index) -> index
    %1 = "pto.addptr"(%arg0, %0) : (!pto.ptr<f16>, index) -> !pto.ptr<f16>
    %2 = "pto.make_tensor_view"(%1, %c16_index, %c64_index, %c64_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f16>, index, index, index, index) -> !pto.tensor_view<?x?xf16>
    %data_peer_pview = "pto.partition_view"(%2, %c0_index, %c32_index, %c16_index, %c32_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf16>, index, index, index, index) -> !pto.partition_tensor_view<16x32xf16>
    %recv = "pto.alloc_tile"(%c0_i64) {operand_segment_sizes = array<i32: 1, 0, 0>} : (i64) -> !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    "pto.tload"(%data_peer_pview, %recv) : (!pto.partition_tensor_view<16x32xf16>, !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
    %x_local_pview = "pto.partition_view"(%x_view, %c0_index, %c0_index, %c16_index, %c32_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf16>, index, index, index, index) -> !pto.partition_tensor_view<16x32xf16>
    %mine = "pto.alloc_tile"(%c1024_i64) {operand_segment_sizes = array<i32: 1, 0, 0>} : (i64) -> !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    "pto.tload"(%x_local_pview, %mine) : (!pto.partition_tensor_view<16x32xf16>, !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
    %sum = "pto.alloc_tile"(%c2048_i64) {operand_segment_sizes = array<i32: 1, 0, 0>} : (i64) -> !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    "pto.tadd"(%recv, %mine, %sum) : (!pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
    %3 = "arith.index_cast"(%arg4) : (i32) -> index
    %4 = "func.call"(%arg6, %3) {callee = @CommRemoteOffset_f16} : (!pto.ptr<i64>, index) -> index
    %5 = "pto.addptr"(%arg1, %4) : (!pto.ptr<f16>, index) -> !pto.ptr<f16>
    %6 = "pto.make_tensor_view"(%5, %c4_index, %c16_index, %c64_index, %c1024_index, %c64_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 3, 3>} : (!pto.ptr<f16>, index, index, index, index, index, index) -> !pto.tensor_view<?x?x?xf16>
    %target_peer_pview = "pto.partition_view"(%6, %c1_index, %c0_index, %c32_index, %c1_index, %c16_index, %c32_index) {operand_segment_sizes = array<i32: 1, 3, 3>} : (!pto.tensor_view<?x?x?xf16>, index, index, index, index, index, index) -> !pto.partition_tensor_view<1x16x32xf16>
    "pto.tstore"(%sum, %target_peer_pview) {atomicType = #pto<atomic_type atomic_add>} : (!pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.partition_tensor_view<1x16x32xf16>) -> ()
    "pto.cmo.cacheinvalid"(%target_peer_pview) {mode = #pto<cache_line single_cache_line>} : (!pto.partition_tensor_view<1x16x32xf16>) -> ()
    %7 = "arith.index_cast"(%arg4) : (i32) -> index
    %8 = "func.call"(%arg5, %7) {callee = @CommRemoteOffset_f16} : (!pto.ptr<i64>, index) -> index
    %9 = "pto.addptr"(%arg0, %8) : (!pto.ptr<f16>, index) -> !pto.ptr<f16>
    %10 = "pto.make_tensor_view"(%9, %c16_index, %c64_index, %c64_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f16>, index, index, index, index) -> !pto.tensor_view<?x?xf16>
    %11 = "pto.partition_view"(%10, %c0_index, %c0_index, %c16_index, %c32_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf16>, index, index, index, index) -> !pto.partition_tensor_view<16x32xf16>
    "pto.tstore"(%sum, %11) : (!pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.partition_tensor_view<16x32xf16>) -> ()
    "pto.cmo.cacheinvalid"(%11) {mode = #pto<cache_line single_cache_line>} : (!pto.partition_tensor_view<16x32xf16>) -> ()
    "pto.fence.barrier_all"() {scope = #pto.fence_scope<gm>} : () -> ()
    %12 = "arith.index_cast"(%arg4) : (i32) -> index
    %13 = "func.call"(%arg7, %12) {callee = @CommRemoteOffset_i32} : (!pto.ptr<i64>, index) -> index
    %14 = "pto.addptr"(%arg2, %13) : (!pto.ptr<i32>, index) -> !pto.ptr<i32>
    %15 = "pto.make_tensor_view"(%14, %c2_index, %c1_index, %c1_index, %c2_index) {layout = #pto.layout<dn>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<?x?xi32>
    %signal_peer_pview = "pto.partition_view"(%15, %c0_index, %c0_index, %c1_index, %c1_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xi32>, index, index, index, index) -> !pto.partition_tensor_view<1x1xi32>
    "pto.barrier"() {pipe = #pto<pipe PIPE_ALL>} : () -> ()
    "pto.comm.tnotify"(%signal_peer_pview, %c1_i32) {notifyOp = #pto<notify_op atomic_add>} : (!pto.partition_tensor_view<1x1xi32>, i32) -> ()
    "func.return"() : () -> ()
  }) {function_type = (!pto.ptr<f16>, !pto.ptr<f16>, !pto.ptr<i32>, !pto.ptr<f16>, i32, !pto.ptr<i64>, !pto.ptr<i64>, !pto.ptr<i64>) -> (), sym_name = "remote"} : () -> ()

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
