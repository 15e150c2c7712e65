ddblab_bench(vector_bench SOURCES vector_bench.cc DEPS ddblab_engine)
