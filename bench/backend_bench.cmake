if(TARGET ddblab AND TARGET ddblab_backend)
  ddblab_bench(backend_bench SOURCES backend_bench.cc
               DEPS ddblab_backend ddblab_engine)
  target_compile_definitions(backend_bench PRIVATE
    DDBLAB_BIN="$<TARGET_FILE:ddblab>")
  add_dependencies(backend_bench ddblab)
endif()
