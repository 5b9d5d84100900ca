module attributes {pto.target_arch = "a2a3"} {
  func.func @ordered(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: index, %arg3: !pto.ptr<i8>, %__pypto_spmd_block_idx: i32, %__pypto_spmd_block_num: i32) {
    %c0_index = arith.constant 0 : index
    %c1_index = arith.constant 1 : index
    %c128_index = arith.constant 128 : index
    %c4096_index = arith.constant 4096 : index
    %c0_i64 = arith.constant 0 : i64
    %prefetch_src_view = pto.make_tensor_view %arg0, shape = [%c1_index, %c4096_index], strides = [%c4096_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
    %x_view = pto.make_tensor_view %arg1, shape = [%arg2, %c128_index], strides = [%c128_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
    %ctx = pto.make_prefetch_async_context(%arg3 : !pto.ptr<i8>) -> !pto.prefetch_async_context
    %prefetch_src_local_pview = pto.partition_view %prefetch_src_view, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c4096_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x4096xf32>
    %evt = pto.tprefetch_async(%prefetch_src_local_pview, %ctx : !pto.partition_tensor_view<1x4096xf32>, !pto.prefetch_async_context) -> !pto.async_event
    %session = pto.get_prefetch_async_session %ctx : !pto.prefetch_async_context -> !pto.async_session
    %done = pto.comm.wait_async_event(%evt, %session : !pto.async_event, !pto.async_session) -> i1
    %row = arith.index_cast %__pypto_spmd_block_idx : i32 to index
    %x_local_pview = pto.partition_view %x_view, offsets = [%row, %c0_index], sizes = [%c1_index, %c128_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x128xf32>
    %t = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=128, v_row=1, v_col=128, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    pto.tload ins(%x_local_pview : !pto.partition_tensor_view<1x128xf32>) outs(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=128, v_row=1, v_col=128, blayout=row_major, slayout=none_box, fractal=512, pad=0>)
    %0 = pto.partition_view %x_view, offsets = [%row, %c0_index], sizes = [%c1_index, %c128_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x128xf32>
    pto.tstore ins(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=128, v_row=1, v_col=128, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%0 : !pto.partition_tensor_view<1x128xf32>)
    return
  }
}
