# `cmake --install` and the CMake package: the `ddblab` server in bin/, its
# man page in share/man/man1/, the public headers in include/ (emulator/api/,
# the in-process surface; harness/backend/, harness/consumer/ and
# harness/patterns/, the harness's), the static libraries in lib/, and
# lib/cmake/ddblab/ so that
#   find_package(ddblab REQUIRED)
#   target_link_libraries(app PRIVATE ddblab::emulator)  # or ddblab::harness
# works. ddblab::emulator is the Emulator facade with everything it links
# (the engine library and the layers below it). ddblab::harness is the
# Backend (in process, HTTP, AWS), the stream consumer and the patterns, with
# what they link (common/, ddblab::emulator). The same names exist in the
# build tree, for projects that use add_subdirectory(ddblab).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# ddblab::harness: the harness libraries a program driving a Backend or the
# patterns links (patterns links the backend and the consumer).
if(TARGET ddblab_patterns)
  add_library(ddblab_harness INTERFACE)
  target_link_libraries(ddblab_harness INTERFACE ddblab_patterns)
endif()

# The libraries behind the facade and the harness, lowest first; each is
# exported as ddblab::<name without the ddblab_ prefix>, the engine as
# ddblab::emulator.
set(_ddblab_exported "")
foreach(lib ddblab_api ddblab_value ddblab_expr ddblab_partiql ddblab_fault
            ddblab_storage ddblab_streams ddblab_engine
            ddblab_text ddblab_sigv4 ddblab_control_token
            ddblab_backend ddblab_consumer ddblab_patterns ddblab_harness)
  if(NOT TARGET ${lib})
    continue()
  endif()
  string(REPLACE "ddblab_" "" short ${lib})
  if(short STREQUAL "engine")
    set(short emulator)
  endif()
  set_target_properties(${lib} PROPERTIES EXPORT_NAME ${short})
  add_library(ddblab::${short} ALIAS ${lib})
  list(APPEND _ddblab_exported ${lib})
endforeach()

install(TARGETS ${_ddblab_exported} EXPORT ddblabTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(TARGET ddblab)
  install(TARGETS ddblab RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  # ddblab.1.gz, written from `ddblab --help` when ddblab is linked.
  install(FILES $<TARGET_FILE_DIR:ddblab>/ddblab.1.gz
          DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
# Only the public surfaces: emulator/api/ (not the layers behind it) and the
# harness folders ddblab::harness holds, whose headers include only each
# other and emulator/api/ (never the engine).
foreach(dir emulator/api harness/backend harness/consumer harness/patterns)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/${dir}
          FILES_MATCHING PATTERN "*.h")
endforeach()

set(_ddblab_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/ddblab)
install(EXPORT ddblabTargets NAMESPACE ddblab::
        DESTINATION ${_ddblab_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ddblabConfig.cmake.in
  ${PROJECT_BINARY_DIR}/ddblabConfig.cmake
  INSTALL_DESTINATION ${_ddblab_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ddblabConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ddblabConfig.cmake
              ${PROJECT_BINARY_DIR}/ddblabConfigVersion.cmake
        DESTINATION ${_ddblab_cmake_dir})
