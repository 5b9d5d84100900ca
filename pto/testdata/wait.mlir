module attributes {pto.target_arch = "a2a3"} {
  func.func @wait(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: i32, %arg3: !pto.ptr<i64>, %arg4: !pto.ptr<i64>) {
    %c0_index = arith.constant 0 : index
    %c1_index = arith.constant 1 : index
    %c2_index = arith.constant 2 : index
    %c0_i32 = arith.constant 0 : i32
    %signal_view = pto.make_tensor_view %arg1, shape = [%c2_index, %c1_index], strides = [%c1_index, %c2_index] {layout = #pto.layout<dn>} : !pto.tensor_view<?x?xi32>
    scf.for %src = %c0_index to %c2_index step %c1_index {
      %signal_local_pview = pto.partition_view %signal_view, offsets = [%src, %c0_index], sizes = [%c1_index, %c1_index] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
      %0 = arith.index_cast %src : index to i32
      pto.comm.twait(%signal_local_pview, %0 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}
      pto.cmo.cacheinvalid all #pto.address_space<gm>
    }
    %1 = pto.partition_view %signal_view, offsets = [%c1_index, %c0_index], sizes = [%c1_index, %c1_index] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
    pto.comm.twait(%1, %c0_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp eq>}
    return
  }
}
