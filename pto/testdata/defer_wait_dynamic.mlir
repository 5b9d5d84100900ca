module attributes {pto.target_arch = "a2a3"} {
  func.func @kernel(%arg0: !pto.ptr<i32>, %arg1: i64, %arg2: !pto.ptr<i64>, %arg3: index, %__pypto_deferred_raw_args: !pto.ptr<i64>) {
    %cn1_index = arith.constant -1 : index
    %c0_index = arith.constant 0 : index
    %c1_index = arith.constant 1 : index
    %0 = arith.subi %arg3, %c1_index : index
    %1 = arith.cmpi slt, %0, %c0_index : index
    %2 = arith.cmpi sge, %0, %arg3 : index
    %3 = arith.ori %1, %2 : i1
    %4 = arith.muli %0, %c1_index : index
    %5 = arith.addi %c0_index, %4 : index
    %6 = arith.select %3, %cn1_index, %5 : index
    %7 = arith.index_cast %6 : index to i64
    func.call @pypto_register_counter_completion(%__pypto_deferred_raw_args, %arg0, %7, %arg1) : (!pto.ptr<i64>, !pto.ptr<i32>, i64, i64) -> ()
    return
  }

  func.func private @pypto_register_counter_completion(!pto.ptr<i64>, !pto.ptr<i32>, i64, i64)
}
