"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<i8>):
    %c0_index = "arith.constant"() {value = 0 : index} : () -> index
    %c1_index = "arith.constant"() {value = 1 : index} : () -> index
    %c128_index = "arith.constant"() {value = 128 : index} : () -> index
    %c4096_index = "arith.constant"() {value = 4096 : index} : () -> index
    %c0_i64 = "arith.constant"() {value = 0 : i64} : () -> i64
    %x_view = "pto.make_tensor_view"(%arg0, %c1_index, %c4096_index, %c4096_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<?x?xf32>
    %out_view = "pto.make_tensor_view"(%arg1, %c1_index, %c128_index, %c128_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<?x?xf32>
    %ctx = "pto.make_prefetch_async_context"(%arg2) : (!pto.ptr<i8>) -> !pto.prefetch_async_context
    %x_local_pview = "pto.partition_view"(%x_view, %c0_index, %c0_index, %c1_index, %c4096_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf32>, index, index, index, index) -> !pto.partition_tensor_view<1x4096xf32>
    %evt = "pto.tprefetch_async"(%x_local_pview, %ctx) : (!pto.partition_tensor_view<1x4096xf32>, !pto.prefetch_async_context) -> !pto.async_event
    %session = "pto.get_prefetch_async_session"(%ctx) : (!pto.prefetch_async_context) -> !pto.async_session
    %0 = "pto.comm.wait_async_event"(%evt, %session) : (!pto.async_event, !pto.async_session) -> i1
    %1 = "pto.partition_view"(%x_view, %c0_index, %c0_index, %c1_index, %c128_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf32>, index, index, index, index) -> !pto.partition_tensor_view<1x128xf32>
    %tile = "pto.alloc_tile"(%c0_i64) {operand_segment_sizes = array<i32: 1, 0, 0>} : (i64) -> !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=128, v_row=1, v_col=128, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    "pto.tload"(%1, %tile) : (!pto.partition_tensor_view<1x128xf32>, !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=128, v_row=1, v_col=128, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
    %out_local_pview = "pto.partition_view"(%out_view, %c0_index, %c0_index, %c1_index, %c128_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf32>, index, index, index, index) -> !pto.partition_tensor_view<1x128xf32>
    "pto.tstore"(%tile, %out_local_pview) : (!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=128, v_row=1, v_col=128, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.partition_tensor_view<1x128xf32>) -> ()
    "func.return"() : () -> ()
  }) {function_type = (!pto.ptr<f32>, !pto.ptr<f32>, !pto.ptr<i8>) -> (), sym_name = "main"} : () -> ()
}) {pto.target_arch = "a2a3"} : () -> ()
