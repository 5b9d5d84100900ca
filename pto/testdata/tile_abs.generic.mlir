"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>):
    %c0_index = "arith.constant"() {value = 0 : index} : () -> index
    %c1_index = "arith.constant"() {value = 1 : index} : () -> index
    %c16_index = "arith.constant"() {value = 16 : index} : () -> index
    %c0_i64 = "arith.constant"() {value = 0 : i64} : () -> i64
    %c1024_i64 = "arith.constant"() {value = 1024 : i64} : () -> i64
    %x_view = "pto.make_tensor_view"(%arg0, %c16_index, %c16_index, %c16_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<?x?xf32>
    %y_view = "pto.make_tensor_view"(%arg1, %c16_index, %c16_index, %c16_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<?x?xf32>
    %x_local_pview = "pto.partition_view"(%x_view, %c0_index, %c0_index, %c16_index, %c16_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf32>, index, index, index, index) -> !pto.partition_tensor_view<16x16xf32>
    %a = "pto.alloc_tile"(%c0_i64) {operand_segment_sizes = array<i32: 1, 0, 0>} : (i64) -> !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    "pto.tload"(%x_local_pview, %a) : (!pto.partition_tensor_view<16x16xf32>, !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
    %b = "pto.alloc_tile"(%c1024_i64) {operand_segment_sizes = array<i32: 1, 0, 0>} : (i64) -> !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    "pto.tabs"(%a, %b) : (!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
    %y_local_pview = "pto.partition_view"(%y_view, %c0_index, %c0_index, %c16_index, %c16_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf32>, index, index, index, index) -> !pto.partition_tensor_view<16x16xf32>
    "pto.tstore"(%b, %y_local_pview) : (!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.partition_tensor_view<16x16xf32>) -> ()
    "func.return"() : () -> ()
  }) {function_type = (!pto.ptr<f32>, !pto.ptr<f32>) -> (), sym_name = "abs_kernel"} : () -> ()
}) {pto.target_arch = "a2a3"} : () -> ()
