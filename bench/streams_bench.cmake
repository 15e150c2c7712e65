ddblab_bench(streams_bench SOURCES streams_bench.cc DEPS ddblab_engine)
