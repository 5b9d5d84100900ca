"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !pto.ptr<f32>, %arg1: index):
    %c0_index = "arith.constant"() {value = 0 : index} : () -> index
    %c1_index = "arith.constant"() {value = 1 : index} : () -> index
    %c8_index = "arith.constant"() {value = 8 : index} : () -> index
    %c64_index = "arith.constant"() {value = 64 : index} : () -> index
    %c0_i64 = "arith.constant"() {value = 0 : i64} : () -> i64
    %x_view = "pto.make_tensor_view"(%arg0, %c8_index, %c64_index, %c64_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<?x?xf32>
    %x_local_pview = "pto.partition_view"(%x_view, %c0_index, %c0_index, %arg1, %c64_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf32>, index, index, index, index) -> !pto.partition_tensor_view<?x64xf32>
    %t = "pto.alloc_tile"(%c0_i64, %arg1) {operand_segment_sizes = array<i32: 1, 1, 0>} : (i64, index) -> !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=64, v_row=?, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    "pto.tload"(%x_local_pview, %t) : (!pto.partition_tensor_view<?x64xf32>, !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=64, v_row=?, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
    %0 = "pto.partition_view"(%x_view, %c0_index, %c0_index, %arg1, %c64_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf32>, index, index, index, index) -> !pto.partition_tensor_view<?x64xf32>
    "pto.tstore"(%t, %0) : (!pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=64, v_row=?, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.partition_tensor_view<?x64xf32>) -> ()
    "func.return"() : () -> ()
  }) {function_type = (!pto.ptr<f32>, index) -> (), sym_name = "vec_kernel", pto.kernel_kind = #pto.kernel_kind<vector>} : () -> ()
}) {pto.target_arch = "a2a3"} : () -> ()
