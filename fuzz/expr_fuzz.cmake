ddblab_fuzzer(expr_fuzz SOURCES expr_fuzz.cc DEPS ddblab_expr)
