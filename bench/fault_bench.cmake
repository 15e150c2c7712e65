ddblab_bench(fault_bench SOURCES fault_bench.cc DEPS ddblab_engine)
