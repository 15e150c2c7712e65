#!/bin/sh
# cmake/static_deps_link.sh: the link launcher of the `ddblab` executable
# (RULE_LAUNCH_LINK, set when DDBLAB_STATIC_DEPS is on). It runs the link
# command it is given with libsqlite3.so, libssl.so, libcrypto.so and libz.so
# replaced by the static archive next to each (when there is one), so that
# the binary loads none of them: their relocations were most of its startup
# (bench/README.md "## startup"). Only this executable is linked so: test
# programs that load cpp-httplib (which loads libssl.so) keep one OpenSSL.
for arg do
  shift
  case $arg in
    */libsqlite3.so | */libssl.so | */libcrypto.so | */libz.so)
      if [ -f "${arg%.so}.a" ]; then arg=${arg%.so}.a; fi
      ;;
  esac
  set -- "$@" "$arg"
done
exec "$@"
