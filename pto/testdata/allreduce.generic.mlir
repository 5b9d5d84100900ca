"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<f32>, %arg3: !pto.ptr<i32>, %arg4: !pto.ptr<i64>, %arg5: !pto.ptr<i64>):
    %c0_index = "arith.constant"() {value = 0 : index} : () -> index
    %c1_index = "arith.constant"() {value = 1 : index} : () -> index
    %c2_index = "arith.constant"() {value = 2 : index} : () -> index
    %c16_index = "arith.constant"() {value = 16 : index} : () -> index
    %c0_i64 = "arith.constant"() {value = 0 : i64} : () -> i64
    %c32_i64 = "arith.constant"() {value = 32 : i64} : () -> i64
    %c64_i64 = "arith.constant"() {value = 64 : i64} : () -> i64
    %c128_i64 = "arith.constant"() {value = 128 : i64} : () -> i64
    %c192_i64 = "arith.constant"() {value = 192 : i64} : () -> i64
    %c256_i64 = "arith.constant"() {value = 256 : i64} : () -> i64
    %c1_i32 = "arith.constant"() {value = 1 : i32} : () -> i32
    %c0p5_f32 = "arith.constant"() {value = 5.0e-01 : f32} : () -> f32
    %x_view = "pto.make_tensor_view"(%arg0, %c1_index, %c16_index, %c16_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<?x?xf32>
    %data_view = "pto.make_tensor_view"(%arg2, %c2_index, %c16_index, %c16_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<?x?xf32>
    %y_view = "pto.make_tensor_view"(%arg1, %c1_index, %c16_index, %c16_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<?x?xf32>
    %x_local_pview = "pto.partition_view"(%x_view, %c0_index, %c0_index, %c1_index, %c16_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf32>, index, index, index, index) -> !pto.partition_tensor_view<1x16xf32>
    %staged = "pto.alloc_tile"(%c0_i64) {operand_segment_sizes = array<i32: 1, 0, 0>} : (i64) -> !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    "pto.tload"(%x_local_pview, %staged) : (!pto.partition_tensor_view<1x16xf32>, !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
    %data_local_pview = "pto.partition_view"(%data_view, %c0_index, %c0_index, %c1_index, %c16_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf32>, index, index, index, index) -> !pto.partition_tensor_view<1x16xf32>
    "pto.tstore"(%staged, %data_local_pview) : (!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.partition_tensor_view<1x16xf32>) -> ()
    %0 = "pto.partition_view"(%data_view, %c0_index, %c0_index, %c2_index, %c16_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf32>, index, index, index, index) -> !pto.partition_tensor_view<2x16xf32>
    "pto.cmo.cacheinvalid"(%0) {mode = #pto<cache_line single_cache_line>} : (!pto.partition_tensor_view<2x16xf32>) -> ()
    "pto.fence.barrier_all"() {scope = #pto.fence_scope<gm>} : () -> ()
    %1 = "pto.load_scalar"(%arg4, %c2_index) : (!pto.ptr<i64>, index) -> i64
    %2 = "arith.shrui"(%1, %c32_i64) : (i64, i64) -> i64
    %nranks = "arith.trunci"(%2) : (i64) -> i32
    %nranks_idx = "arith.index_cast"(%nranks) : (i32) -> index
    %3 = "pto.load_scalar"(%arg4, %c2_index) : (!pto.ptr<i64>, index) -> i64
    %my_rank = "arith.trunci"(%3) : (i64) -> i32
    "scf.for"(%c0_index, %nranks_idx, %c1_index) ({
    ^bb0(%peer: index):
      %4 = "arith.index_cast"(%my_rank) : (i32) -> index
      %5 = "arith.cmpi"(%peer, %4) {predicate = 1 : i64} : (index, index) -> i1
      "scf.if"(%5) ({
        %6 = "func.call"(%arg5, %peer) {callee = @CommRemoteOffset_i32} : (!pto.ptr<i64>, index) -> index
        %7 = "pto.addptr"(%arg3, %6) : (!pto.ptr<i32>, index) -> !pto.ptr<i32>
        %8 = "pto.make_tensor_view"(%7, %c2_index, %c1_index, %c1_index, %c2_index) {layout = #pto.layout<dn>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<?x?xi32>
        %9 = "arith.index_cast"(%my_rank) : (i32) -> index
        %signal_peer_pview = "pto.partition_view"(%8, %9, %c0_index, %c1_index, %c1_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xi32>, index, index, index, index) -> !pto.partition_tensor_view<1x1xi32>
        "pto.barrier"() {pipe = #pto<pipe PIPE_ALL>} : () -> ()
        "pto.comm.tnotify"(%signal_peer_pview, %c1_i32) {notifyOp = #pto<notify_op atomic_add>} : (!pto.partition_tensor_view<1x1xi32>, i32) -> ()
        "scf.yield"() : () -> ()
      }, {
      }) : (i1) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    %10 = "pto.partition_view"(%data_view, %c0_index, %c0_index, %c1_index, %c16_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf32>, index, index, index, index) -> !pto.partition_tensor_view<1x16xf32>
    %chunk = "pto.alloc_tile"(%c64_i64) {operand_segment_sizes = array<i32: 1, 0, 0>} : (i64) -> !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    "pto.tload"(%10, %chunk) : (!pto.partition_tensor_view<1x16xf32>, !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
    "pto.tfillpad"(%chunk, %chunk) {padValue = #pto<pad_value zero>} : (!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
    %acc_rv = "scf.for"(%c0_index, %nranks_idx, %c1_index, %chunk) ({
    ^bb0(%peer_1: index, %acc_iter: !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>):
      %11 = "arith.index_cast"(%my_rank) : (i32) -> index
      %12 = "arith.cmpi"(%peer_1, %11) {predicate = 1 : i64} : (index, index) -> i1
      %acc_next = "scf.if"(%12) ({
        %13 = "func.call"(%arg4, %peer_1) {callee = @CommRemoteOffset_f32} : (!pto.ptr<i64>, index) -> index
        %14 = "pto.addptr"(%arg2, %13) : (!pto.ptr<f32>, index) -> !pto.ptr<f32>
        %15 = "pto.make_tensor_view"(%14, %c2_index, %c16_index, %c16_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<?x?xf32>
        %data_peer_pview = "pto.partition_view"(%15, %c0_index, %c0_index, %c1_index, %c16_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf32>, index, index, index, index) -> !pto.partition_tensor_view<1x16xf32>
        %recv = "pto.alloc_tile"(%c128_i64) {operand_segment_sizes = array<i32: 1, 0, 0>} : (i64) -> !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>
        "pto.tload"(%data_peer_pview, %recv) : (!pto.partition_tensor_view<1x16xf32>, !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
        "pto.tfillpad"(%recv, %recv) {padValue = #pto<pad_value zero>} : (!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
        %acc_sum = "pto.alloc_tile"(%c192_i64) {operand_segment_sizes = array<i32: 1, 0, 0>} : (i64) -> !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>
        "pto.tadd"(%acc_iter, %recv, %acc_sum) : (!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
        "scf.yield"(%acc_sum) : (!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
      }, {
        "scf.yield"(%acc_iter) : (!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
      }) : (i1) -> !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>
      "scf.yield"(%acc_next) : (!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
    }) : (index, index, index, !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    %out = "pto.alloc_tile"(%c256_i64) {operand_segment_sizes = array<i32: 1, 0, 0>} : (i64) -> !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    "pto.tmuls"(%acc_rv, %c0p5_f32, %out) : (!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>, f32, !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
    %y_local_pview = "pto.partition_view"(%y_view, %c0_index, %c0_index, %c1_index, %c16_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf32>, index, index, index, index) -> !pto.partition_tensor_view<1x16xf32>
    "pto.tstore"(%out, %y_local_pview) : (!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.partition_tensor_view<1x16xf32>) -> ()
    %16 = "pto.partition_view"(%data_view, %c0_index, %c0_index, %c2_index, %c16_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf32>, index, index, index, index) -> !pto.partition_tensor_view<2x16xf32>
    "pto.cmo.cacheinvalid"(%16) {mode = #pto<cache_line single_cache_line>} : (!pto.partition_tensor_view<2x16xf32>) -> ()
    "pto.fence.barrier_all"() {scope = #pto.fence_scope<gm>} : () -> ()
    "func.return"() : () -> ()
  }) {function_type = (!pto.ptr<f32>, !pto.ptr<f32>, !pto.ptr<f32>, !pto.ptr<i32>, !pto.ptr<i64>, !pto.ptr<i64>) -> (), sym_name = "allreduce"} : () -> ()

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
  }) {function_type = (!pto.ptr<i64>, index) -> index, sym_name = "CommRemoteOffset_f32", sym_visibility = "private"} : () -> ()
}) {pto.target_arch = "a2a3"} : () -> ()
