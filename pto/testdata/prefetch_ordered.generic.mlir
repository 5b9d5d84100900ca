"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: index, %arg3: !pto.ptr<i8>, %__pypto_spmd_block_idx: i32, %__pypto_spmd_block_num: i32):
    %c0_index = "arith.constant"() {value = 0 : index} : () -> index
    %c1_index = "arith.constant"() {value = 1 : index} : () -> index
    %c128_index = "arith.constant"() {value = 128 : index} : () -> index
    %c4096_index = "arith.constant"() {value = 4096 : index} : () -> index
    %c0_i64 = "arith.constant"() {value = 0 : i64} : () -> i64
    %prefetch_src_view = "pto.make_tensor_view"(%arg0, %c1_index, %c4096_index, %c4096_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<?x?xf32>
    %x_view = "pto.make_tensor_view"(%arg1, %arg2, %c128_index, %c128_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<?x?xf32>
    %ctx = "pto.make_prefetch_async_context"(%arg3) : (!pto.ptr<i8>) -> !pto.prefetch_async_context
    %prefetch_src_local_pview = "pto.partition_view"(%prefetch_src_view, %c0_index, %c0_index, %c1_index, %c4096_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf32>, index, index, index, index) -> !pto.partition_tensor_view<1x4096xf32>
    %evt = "pto.tprefetch_async"(%prefetch_src_local_pview, %ctx) : (!pto.partition_tensor_view<1x4096xf32>, !pto.prefetch_async_context) -> !pto.async_event
    %session = "pto.get_prefetch_async_session"(%ctx) : (!pto.prefetch_async_context) -> !pto.async_session
    %done = "pto.comm.wait_async_event"(%evt, %session) : (!pto.async_event, !pto.async_session) -> i1
    %row = "arith.index_cast"(%__pypto_spmd_block_idx) : (i32) -> index
    %x_local_pview = "pto.partition_view"(%x_view, %row, %c0_index, %c1_index, %c128_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf32>, index, index, index, index) -> !pto.partition_tensor_view<1x128xf32>
    %t = "pto.alloc_tile"(%c0_i64) {operand_segment_sizes = array<i32: 1, 0, 0>} : (i64) -> !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=128, v_row=1, v_col=128, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    "pto.tload"(%x_local_pview, %t) : (!pto.partition_tensor_view<1x128xf32>, !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=128, v_row=1, v_col=128, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
    %0 = "pto.partition_view"(%x_view, %row, %c0_index, %c1_index, %c128_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf32>, index, index, index, index) -> !pto.partition_tensor_view<1x128xf32>
    "pto.tstore"(%t, %0) : (!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=128, v_row=1, v_col=128, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.partition_tensor_view<1x128xf32>) -> ()
    "func.return"() : () -> ()
  }) {function_type = (!pto.ptr<f32>, !pto.ptr<f32>, index, !pto.ptr<i8>, i32, i32) -> (), sym_name = "ordered"} : () -> ()
}) {pto.target_arch = "a2a3"} : () -> ()
