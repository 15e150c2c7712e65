#!/usr/bin/env bash
# cmake/man_page.sh: writes ddblab's man page (section 1, gzipped as Debian
# wants) from `ddblab --help` and `ddblab --version`, so that the page never
# drifts from the flags. Run after ddblab is linked (cli/CMakeLists.txt):
#   man_page.sh BUILD/cli/ddblab BUILD/cli/ddblab.1.gz
# The help's first line ("ddblab 0.1.0 - a DynamoDB emulator") gives NAME;
# each line of the form "Heading:" starts a section; the rest is kept as
# written (no filling), with roff's special characters escaped.
set -euo pipefail
bin=$1 out=$2
# A sanitized build's leak report at exit is the tests' business, not this.
export ASAN_OPTIONS=detect_leaks=0
help=$("$bin" --help)
version=$("$bin" --version)
first=${help%%$'\n'*}
{
  printf '.TH DDBLAB 1 "" "%s" "User Commands"\n' "$version"
  printf '.SH NAME\nddblab \\- %s\n' "${first#* - }"
  printf '%s\n' "$help" | tail -n +2 |
    sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^[.']/\\\\\&&/" \
        -e '/^[A-Z][^ ]*\( [^ ]*\)*:$/{s/:$//;s/.*/.fi\n.SH \U&\E\n.nf/}'
  printf '.fi\n'
} | gzip -9n >"$out.tmp"
mv "$out.tmp" "$out"
