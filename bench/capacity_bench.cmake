ddblab_bench(capacity_bench SOURCES capacity_bench.cc DEPS ddblab_engine)
