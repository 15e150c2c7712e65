ddblab_bench(ttl_bench SOURCES ttl_bench.cc DEPS ddblab_engine SQLite::SQLite3)
