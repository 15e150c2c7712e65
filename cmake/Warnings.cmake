# Warnings as errors for ddblab's own targets only (not for dependencies).
set(DDBLAB_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                    -Wno-sign-conversion -Werror)
# Clang's lock analysis (emulator/api/thread_annotations.h); 16 or later
# follows the guard EmulatorImpl::Lock() returns into the caller.
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang" AND
   CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 16)
  list(APPEND DDBLAB_WARNINGS -Wthread-safety)
endif()

# ddblab_library(name SOURCES ... DEPS ...): one static library per folder.
function(ddblab_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}> $<INSTALL_INTERFACE:include>)
  target_compile_options(${name} PRIVATE ${DDBLAB_WARNINGS})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
  ddblab_use_pch(${name} ddblab_pch_lib)
endfunction()

# ddblab_test(name SOURCES ... DEPS ...): one GoogleTest binary; each TEST is
# its own ctest entry. The test files themselves are compiled without
# optimisation (-O0 comes after the build type's -O2): the code under test
# is in the optimised libraries, and the optimiser's work on GoogleTest's
# macros was about a third of a test file's compile time (CI budget).
function(ddblab_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_compile_options(${name} PRIVATE ${DDBLAB_WARNINGS} -O0)
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gmock GTest::gtest_main)
  ddblab_use_pch(${name} ddblab_pch_test)
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60
                       PROPERTIES LABELS unit)
endfunction()
