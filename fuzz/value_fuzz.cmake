ddblab_fuzzer(value_fuzz SOURCES value_fuzz.cc DEPS ddblab_value)
