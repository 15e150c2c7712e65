if(TARGET ddblab_consumer)
  ddblab_bench(consumer_bench SOURCES consumer_bench.cc DEPS ddblab_consumer PkgConfig::HTTPLIB)
  target_compile_definitions(consumer_bench PRIVATE
    DDBLAB_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
endif()
