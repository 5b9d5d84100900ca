"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: i32, %arg3: !pto.ptr<i64>, %arg4: !pto.ptr<i64>):
    %c0_index = "arith.constant"() {value = 0 : index} : () -> index
    %c1_index = "arith.constant"() {value = 1 : index} : () -> index
    %c2_index = "arith.constant"() {value = 2 : index} : () -> index
    %c0_i32 = "arith.constant"() {value = 0 : i32} : () -> i32
    %signal_view = "pto.make_tensor_view"(%arg1, %c2_index, %c1_index, %c1_index, %c2_index) {layout = #pto.layout<dn>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<?x?xi32>
    "scf.for"(%c0_index, %c2_index, %c1_index) ({
    ^bb0(%src: index):
      %signal_local_pview = "pto.partition_view"(%signal_view, %src, %c0_index, %c1_index, %c1_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xi32>, index, index, index, index) -> !pto.partition_tensor_view<1x1xi32>
      %0 = "arith.index_cast"(%src) : (index) -> i32
      "pto.comm.twait"(%signal_local_pview, %0) {cmp = #pto<wait_cmp ge>} : (!pto.partition_tensor_view<1x1xi32>, i32) -> ()
      "pto.cmo.cacheinvalid"() {all, space = #pto.address_space<gm>} : () -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    %1 = "pto.partition_view"(%signal_view, %c1_index, %c0_index, %c1_index, %c1_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xi32>, index, index, index, index) -> !pto.partition_tensor_view<1x1xi32>
    "pto.comm.twait"(%1, %c0_i32) {cmp = #pto<wait_cmp eq>} : (!pto.partition_tensor_view<1x1xi32>, i32) -> ()
    "func.return"() : () -> ()
  }) {function_type = (!pto.ptr<f32>, !pto.ptr<i32>, i32, !pto.ptr<i64>, !pto.ptr<i64>) -> (), sym_name = "wait"} : () -> ()
}) {pto.target_arch = "a2a3"} : () -> ()
