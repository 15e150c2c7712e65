# ops_callgrind: a fixed number of calls of one operation, for counting
# instructions under callgrind (bench/ops_callgrind.sh).
add_executable(ops_callgrind ops_callgrind.cc)
target_compile_options(ops_callgrind PRIVATE ${DDBLAB_WARNINGS})
target_link_libraries(ops_callgrind PRIVATE ddblab_engine)
