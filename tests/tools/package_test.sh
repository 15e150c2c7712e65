#!/usr/bin/env bash
# The Debian package (cmake/Package.cmake): built from the build tree with
# CPack, read back, and the server run from it.
# Usage: package_test.sh BUILD_DIR VERSION
#  1. `cpack -G DEB` (into a temp dir; it packages what is built, no build)
#     makes ddblab_<VERSION>_<dpkg arch>.deb;
#  2. dpkg-deb --info says ddblab, VERSION, section devel, the maintainer,
#     and Depends names the package of every library build/cli/ddblab needs
#     (readelf); --contents lists the binary, the libraries, the headers,
#     the CMake package and the man page;
#  3. extracted with dpkg-deb -x: usr/bin/ddblab --version prints
#     "ddblab VERSION", the man page is gzipped roff, and a smoke test
#     passes: `ddblab serve --port 0 --clock manual` in the background, one
#     signed ListTables with curl answers {"TableNames":[]}, SIGTERM stops it
#     with status 0;
#  4. as root with DDBLAB_DPKG_INSTALL=1 (scripts/test.sh sets it in CI):
#     dpkg -i, the same checks on /usr/bin/ddblab, then dpkg -r (both
#     --no-triggers, see below). It refuses to run over a ddblab package or
#     a /usr/bin/ddblab already there.
set -euo pipefail
build=$1 version=$2
tmp=$(mktemp -d)
server="" installed=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
  if [ -n "$installed" ]; then dpkg -r --no-triggers ddblab >/dev/null 2>&1 || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "package_test: $*" >&2; exit 1; }

arch=$(dpkg --print-architecture)
deb=ddblab_${version}_${arch}.deb
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/out" >"$tmp/cpack.log" 2>&1 ||
  fail "cpack failed: $(cat "$tmp/cpack.log")"
made=$(cd "$tmp/out" && ls -- *.deb)
[ "$made" = "$deb" ] || fail "cpack made '$made', want $deb"
echo "cpack: $deb ($(stat -c %s "$tmp/out/$deb") bytes)"

info=$(dpkg-deb --info "$tmp/out/$deb")
for want in "Package: ddblab" "Version: $version" "Architecture: $arch" \
            "Maintainer: ddblab developers" "Section: devel"; do
  grep -qx " $want" <<<"$info" || fail "dpkg-deb --info lacks '$want': $info"
done
# Depends is written by hand (cmake/Package.cmake): every library the binary
# needs must come from a package it lists.
depends=$(sed -n 's/^ Depends: //p' <<<"$info")
declare -A package_of=(
  [libc.so.6]=libc6 [libm.so.6]=libc6 [ld-linux-x86-64.so.2]=libc6
  [libgcc_s.so.1]=libgcc-s1
  [libstdc++.so.6]=libstdc++6 [libsqlite3.so.0]=libsqlite3-0
  [libssl.so.3]=libssl3 [libcrypto.so.3]=libssl3 [libz.so.1]=zlib1g)
depends_names=$(sed 's/ ([^)]*)//g; s/, /\n/g' <<<"$depends")
needed=$(readelf -d "$build/cli/ddblab" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[ -n "$needed" ] || fail "readelf lists no NEEDED library of $build/cli/ddblab"
for so in $needed; do
  pkg=${package_of[$so]:-}
  [ -n "$pkg" ] || fail "ddblab needs $so: add its package to Depends (cmake/Package.cmake) and here"
  grep -qxF -- "$pkg" <<<"$depends_names" || fail "Depends lacks $pkg (for $so): '$depends'"
done
echo "Depends: $depends"
contents=$(dpkg-deb --contents "$tmp/out/$deb" | awk '{print $NF}')
for f in ./usr/bin/ddblab ./usr/lib/libddblab_engine.a \
         ./usr/lib/libddblab_backend.a ./usr/include/emulator/api/emulator.h \
         ./usr/include/harness/backend/backend.h \
         ./usr/lib/cmake/ddblab/ddblabConfig.cmake \
         ./usr/lib/cmake/ddblab/ddblabTargets.cmake \
         ./usr/share/man/man1/ddblab.1.gz; do
  grep -qx -- "$f" <<<"$contents" || fail "$deb lacks $f"
done

# smoke BIN: serve on a port of its own choosing, one ListTables, stop.
smoke() {
  local bin=$1 log=$tmp/serve.log port="" out rc
  "$bin" serve --port 0 --clock manual --control off --no-ui >"$log" 2>&1 &
  server=$!
  for _ in $(seq 1 200); do
    port=$(sed -n 's|.* serving DynamoDB at http://127\.0\.0\.1:\([0-9]*\) .*|\1|p' "$log")
    [ -n "$port" ] && break
    kill -0 "$server" 2>/dev/null || fail "$bin serve exited: $(cat "$log")"
    sleep 0.05
  done
  [ -n "$port" ] || fail "$bin serve printed no endpoint: $(cat "$log")"
  out=$(curl -sS --max-time 20 --aws-sigv4 aws:amz:us-east-1:dynamodb --user x:x \
    -H 'X-Amz-Target: DynamoDB_20120810.ListTables' \
    -H 'Content-Type: application/x-amz-json-1.0' -d '{}' "http://127.0.0.1:$port/")
  [ "$out" = '{"TableNames":[]}' ] || fail "$bin: ListTables answered '$out'"
  kill -TERM "$server"
  rc=0
  wait "$server" || rc=$?
  server=""
  [ "$rc" = 0 ] || fail "$bin serve exited with status $rc after SIGTERM"
  echo "$bin: serve on port $port answered ListTables $out"
}

# check ROOT: the binary and the man page under ROOT/usr.
check() {
  local root=$1 got
  got=$("$root/usr/bin/ddblab" --version)
  [ "$got" = "ddblab $version" ] || fail "$root/usr/bin/ddblab --version printed '$got'"
  got=$(gzip -dc "$root/usr/share/man/man1/ddblab.1.gz" | head -1)
  [ "$got" = ".TH DDBLAB 1 \"\" \"ddblab $version\" \"User Commands\"" ] ||
    fail "man page starts '$got'"
  smoke "$root/usr/bin/ddblab"
}

dpkg-deb -x "$tmp/out/$deb" "$tmp/root"
check "$tmp/root"

if [ "${DDBLAB_DPKG_INSTALL:-}" = 1 ] && [ "$(id -u)" = 0 ]; then
  if dpkg-query -W -f='${Status}' ddblab 2>/dev/null | grep -q "ok installed"; then
    fail "a ddblab package is installed already; dpkg -r ddblab, or unset DDBLAB_DPKG_INSTALL"
  fi
  [ ! -e /usr/bin/ddblab ] || fail "/usr/bin/ddblab exists already (not from a package)"
  installed=1
  # --no-triggers: man-db re-indexes the man pages on each install and
  # removal (about 4 s each); its trigger stays pending for the next dpkg or
  # apt run instead, which indexes a tree this test leaves as it found it.
  dpkg -i --no-triggers "$tmp/out/$deb" >"$tmp/dpkg.log" 2>&1 ||
    fail "dpkg -i failed: $(cat "$tmp/dpkg.log")"
  echo "dpkg -i $deb: installed"
  check ""
  dpkg -r --no-triggers ddblab >"$tmp/dpkg.log" 2>&1 ||
    fail "dpkg -r failed: $(cat "$tmp/dpkg.log")"
  installed=""
  [ ! -e /usr/bin/ddblab ] || fail "dpkg -r ddblab left /usr/bin/ddblab"
  echo "dpkg -r ddblab: removed"
fi
