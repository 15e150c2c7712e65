ddblab_bench(expr_bench SOURCES expr_bench.cc DEPS ddblab_expr)
