module attributes {pto.target_arch = "a2a3"} {
  func.func @kernel(%arg0: !pto.ptr<i32>, %arg1: i32, %arg2: i32, %arg3: !pto.ptr<i64>, %__pypto_deferred_raw_args: !pto.ptr<i64>) {
    %cn1_index = arith.constant -1 : index
    %c0_index = arith.constant 0 : index
    %c1_index = arith.constant 1 : index
    %c2_index = arith.constant 2 : index
    %c4_index = arith.constant 4 : index
    %c8_index = arith.constant 8 : index
    %c16_index = arith.constant 16 : index
    %0 = arith.index_cast %arg1 : i32 to index
    %1 = arith.cmpi slt, %0, %c0_index : index
    %2 = arith.cmpi sge, %0, %c4_index : index
    %3 = arith.ori %1, %2 : i1
    %4 = arith.muli %0, %c16_index : index
    %5 = arith.addi %c0_index, %4 : index
    %6 = arith.cmpi slt, %c2_index, %c0_index : index
    %7 = arith.cmpi sge, %c2_index, %c8_index : index
    %8 = arith.ori %6, %7 : i1
    %9 = arith.ori %3, %8 : i1
    %10 = arith.muli %c2_index, %c1_index : index
    %11 = arith.addi %5, %10 : index
    %12 = arith.select %9, %cn1_index, %11 : index
    %13 = arith.index_cast %12 : index to i64
    %14 = arith.extsi %arg2 : i32 to i64
    func.call @pypto_register_counter_completion(%__pypto_deferred_raw_args, %arg0, %13, %14) : (!pto.ptr<i64>, !pto.ptr<i32>, i64, i64) -> ()
    return
  }

  func.func private @pypto_register_counter_completion(!pto.ptr<i64>, !pto.ptr<i32>, i64, i64)
}
