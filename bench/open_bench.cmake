ddblab_bench(open_bench SOURCES open_bench.cc DEPS ddblab_engine)
