"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !pto.ptr<i8>):
    %0 = "pto.make_prefetch_async_context"(%arg0) : (!pto.ptr<i8>) -> !pto.prefetch_async_context
    "func.return"() : () -> ()
  }) {function_type = (!pto.ptr<i8>) -> (), sym_name = "main"} : () -> ()
}) {pto.target_arch = "a2a3"} : () -> ()
