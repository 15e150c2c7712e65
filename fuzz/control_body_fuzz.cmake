# The clock routes are compiled from cli/ (not ddblab_cli, which would pull
# in the scenario runner, the pattern benchmarks and the web console).
ddblab_fuzzer(control_body_fuzz
  SOURCES control_body_fuzz.cc
          ${PROJECT_SOURCE_DIR}/cli/control_ttl.cc
          ${PROJECT_SOURCE_DIR}/cli/control_response.cc
          ${PROJECT_SOURCE_DIR}/cli/emulator_handler.cc
  DEPS ddblab_server ddblab_engine ddblab_fault ddblab_consumer ddblab_backend)
target_include_directories(control_body_fuzz PRIVATE ${PROJECT_SOURCE_DIR})
