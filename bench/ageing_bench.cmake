ddblab_bench(ageing_bench SOURCES ageing_bench.cc DEPS ddblab_engine)
