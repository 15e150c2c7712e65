ddblab_bench(engine_bench SOURCES engine_bench.cc engine_bench_ops.cc engine_bench_partiql.cc DEPS ddblab_engine SQLite::SQLite3)
