# `cmake --install` and the CMake package: the `ddblab` server in bin/, the
# public headers (emulator/api/*.h, the in-process surface) in include/, the
# static libraries in lib/, and lib/cmake/ddblab/ so that
#   find_package(ddblab REQUIRED)
#   target_link_libraries(app PRIVATE ddblab::emulator)
# works. ddblab::emulator is the Emulator facade with everything it links
# (the engine library and the layers below it). The same ddblab::emulator name
# exists in the build tree, for projects that use add_subdirectory(ddblab).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The libraries behind the facade, lowest first; each is exported as
# ddblab::<name without the ddblab_ prefix>, the engine as ddblab::emulator.
set(_ddblab_exported "")
foreach(lib ddblab_api ddblab_value ddblab_expr ddblab_partiql ddblab_fault
            ddblab_storage ddblab_streams ddblab_engine)
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
endif()
# Only the public surface: emulator/api/ (not the layers behind it).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/emulator/api/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/emulator/api
        FILES_MATCHING PATTERN "*.h")

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
