# The Debian package of ddblab, made by CPack from the build tree (no second
# build): what `cmake --install` puts under a prefix (cmake/Install.cmake),
# under /usr.
#   cd build && cpack -G DEB      ->  ddblab_<version>_<arch>.deb
# holds /usr/bin/ddblab, its man page, the headers, the static libraries and
# the CMake package (find_package(ddblab)). tests/tools/package_test.sh
# (ctest `package`) builds it, reads it back and runs the server from it.
# Only when ddblab is the top-level project: a project that adds ddblab with
# add_subdirectory keeps its own CPack settings.
if(NOT PROJECT_IS_TOP_LEVEL)
  return()
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ddblab)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "DynamoDB emulator and test harness (server, C++ libraries)")
# The long description, one line per line of the control file.
string(JOIN "\n" CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "ddblab serve is a local DynamoDB and DynamoDB Streams endpoint with a"
  "virtual clock, TTL, fault injection and capacity limits; ddblab run plays"
  "scenario files against it. The package also holds the C++ headers, static"
  "libraries and CMake package (find_package(ddblab): ddblab::emulator,"
  "ddblab::harness).")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "ddblab developers")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# ddblab_0.1.0_amd64.deb; the architecture is dpkg's (CPack's default).
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# Depends: the packages of the shared libraries `ddblab` links (readelf -d
# build/cli/ddblab | grep NEEDED): libc and libm only, since libstdc++,
# libgcc and (DDBLAB_STATIC_DEPS) SQLite, OpenSSL and zlib are linked in
# (cli/CMakeLists.txt); the version is that of its newest glibc symbol
# (objdump -T: GLIBC_2.36). Written here rather than
# CPACK_DEBIAN_PACKAGE_SHLIBDEPS: that runs `file` on every packaged file
# and dpkg-shlibdeps over the dpkg database, 5 to 10 s against 2 s for the
# whole package (CI's budget). tests/tools/package_test.sh fails when the
# binary needs a library whose package is not listed.
if(DDBLAB_STATIC_DEPS)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.36)")
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
      "libc6 (>= 2.36), libsqlite3-0 (>= 3.37.0), libssl3 (>= 3.0.0), zlib1g (>= 1:1.2.0)")
endif()
# Building against the headers and libraries needs their -dev packages.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS
    "cmake, libsqlite3-dev, nlohmann-json3-dev, libssl-dev, zlib1g-dev, libboost-dev")
# cpack packages what is built and never builds: it runs the install rules
# (cmake_install.cmake) as `cmake --install` does, instead of CPack's default
# of building the `preinstall` target (all of ddblab, tests included) first.
# `make package` still builds first.
set(CPACK_INSTALL_CMAKE_PROJECTS "")
set(CPACK_INSTALL_SCRIPTS ${PROJECT_BINARY_DIR}/cmake_install.cmake)
# Under /usr (the install scripts take the prefix from CPACK_INSTALL_PREFIX,
# not from the DEB generator's CPACK_PACKAGING_INSTALL_PREFIX).
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
include(CPack)
