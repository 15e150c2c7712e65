# Every dependency is a Debian package. A missing one stops configuration
# with the name of the package to install.
find_package(PkgConfig QUIET)

macro(ddblab_require found package)
  if(NOT ${found})
    message(FATAL_ERROR
      "ddblab needs the Debian package '${package}'. Install it with:\n"
      "  sudo apt-get install -y ${package}\n"
      "or run ./scripts/setup.sh, which installs everything.")
  endif()
endmacro()

find_package(Threads REQUIRED)

find_package(SQLite3 QUIET)
ddblab_require(SQLite3_FOUND libsqlite3-dev)

find_package(nlohmann_json 3.10 QUIET)
ddblab_require(nlohmann_json_FOUND nlohmann-json3-dev)

# Debian ships cpp-httplib as a compiled library described by pkg-config.
ddblab_require(PKG_CONFIG_FOUND pkg-config)
pkg_check_modules(HTTPLIB QUIET IMPORTED_TARGET cpp-httplib)
ddblab_require(HTTPLIB_FOUND libcpp-httplib-dev)

# Boost.Asio + Boost.Beast (header-only) carry ddblab serve's HTTP.
find_package(Boost 1.74 QUIET)
ddblab_require(Boost_FOUND libboost-dev)

find_package(OpenSSL QUIET)
ddblab_require(OPENSSL_FOUND libssl-dev)

# The `ddblab` executable links SQLite, OpenSSL and zlib from their static
# archives (Debian's -dev packages ship them) for a faster start; off: the
# shared libraries, as every other target links them (cli/CMakeLists.txt).
option(DDBLAB_STATIC_DEPS
       "Link the ddblab executable with static SQLite, OpenSSL and zlib" ON)

# zlib: request and response compression (gzip / deflate) in the server,
# and the crc32 of DynamoDB responses (x-amz-crc32) in the harness's client.
find_package(ZLIB QUIET)
ddblab_require(ZLIB_FOUND zlib1g-dev)

if(DDBLAB_TESTS)
  find_package(GTest QUIET)
  ddblab_require(GTest_FOUND "libgtest-dev libgmock-dev")
endif()

if(DDBLAB_BENCH)
  find_package(benchmark QUIET)
  ddblab_require(benchmark_FOUND libbenchmark-dev)
endif()
