module attributes {pto.target_arch = "a2a3"} {
  func.func @vec_kernel(%arg0: !pto.ptr<f32>, %arg1: index) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    %c0_index = arith.constant 0 : index
    %c1_index = arith.constant 1 : index
    %c8_index = arith.constant 8 : index
    %c64_index = arith.constant 64 : index
    %c0_i64 = arith.constant 0 : i64
    %x_view = pto.make_tensor_view %arg0, shape = [%c8_index, %c64_index], strides = [%c64_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
    %x_local_pview = pto.partition_view %x_view, offsets = [%c0_index, %c0_index], sizes = [%arg1, %c64_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<?x64xf32>
    %t = pto.alloc_tile addr = %c0_i64 valid_row = %arg1 : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=64, v_row=?, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    pto.tload ins(%x_local_pview : !pto.partition_tensor_view<?x64xf32>) outs(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=64, v_row=?, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>)
    %0 = pto.partition_view %x_view, offsets = [%c0_index, %c0_index], sizes = [%arg1, %c64_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<?x64xf32>
    pto.tstore ins(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=64, v_row=?, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%0 : !pto.partition_tensor_view<?x64xf32>)
    return
  }
}
