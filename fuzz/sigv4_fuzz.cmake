ddblab_fuzzer(sigv4_fuzz SOURCES sigv4_fuzz.cc DEPS ddblab_server)
