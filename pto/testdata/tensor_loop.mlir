module attributes {pto.target_arch = "a2a3"} {
  func.func @tensor_loop(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: index) {
    %c0_index = arith.constant 0 : index
    %c1_index = arith.constant 1 : index
    %c16_index = arith.constant 16 : index
    %c0_i64 = arith.constant 0 : i64
    %c64_i64 = arith.constant 64 : i64
    %x_view = pto.make_tensor_view %arg0, shape = [%arg2, %c16_index], strides = [%c16_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
    %y_view = pto.make_tensor_view %arg1, shape = [%arg2, %c16_index], strides = [%c16_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
    scf.for %i = %c0_index to %arg2 step %c1_index {
      %x_local_pview = pto.partition_view %x_view, offsets = [%i, %c0_index], sizes = [%c1_index, %c16_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x16xf32>
      %row = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>
      pto.tload ins(%x_local_pview : !pto.partition_tensor_view<1x16xf32>) outs(%row : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>)
      %y_local_pview = pto.partition_view %y_view, offsets = [%i, %c0_index], sizes = [%c1_index, %c16_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x16xf32>
      pto.tstore ins(%row : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%y_local_pview : !pto.partition_tensor_view<1x16xf32>)
    }
    %0 = pto.partition_view %x_view, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c16_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x16xf32>
    %last = pto.alloc_tile addr = %c64_i64 : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    pto.tload ins(%0 : !pto.partition_tensor_view<1x16xf32>) outs(%last : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>)
    %1 = pto.partition_view %y_view, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c16_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x16xf32>
    pto.tstore ins(%last : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%1 : !pto.partition_tensor_view<1x16xf32>)
    return
  }
}
