ddblab_fuzzer(engine_fuzz SOURCES engine_fuzz.cc DEPS ddblab_engine)
