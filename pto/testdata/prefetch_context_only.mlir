module attributes {pto.target_arch = "a2a3"} {
  func.func @main(%arg0: !pto.ptr<i8>) {
    %0 = pto.make_prefetch_async_context(%arg0 : !pto.ptr<i8>) -> !pto.prefetch_async_context
    return
  }
}
