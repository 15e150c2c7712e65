ddblab_bench(engine_bench SOURCES engine_bench.cc DEPS ddblab_engine SQLite::SQLite3)
