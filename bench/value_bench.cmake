ddblab_bench(value_bench SOURCES value_bench.cc DEPS ddblab_value)
