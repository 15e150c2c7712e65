# Precompiled headers: nlohmann/json.hpp and the standard library headers
# most translation units include (and GoogleTest for the tests) compiled
# once instead of in every translation unit. json.hpp alone is about 2 s of
# a 3-5 s compile; CI builds everything from scratch on two cores.
#
# Only third-party and standard headers go in, so a .cc that forgets one of
# ddblab's own includes still fails to compile; the header check
# (HeaderCheck.cmake) compiles every header alone, without them.
#
# Default: on when ccache is not in use (a fresh CI machine), off with
# ccache, whose hits across build trees a precompiled header would defeat
# (its hash includes the build tree's path).
if(DDBLAB_CCACHE)
  set(ddblab_pch_default OFF)
else()
  set(ddblab_pch_default ON)
endif()
option(DDBLAB_PCH "Precompile json.hpp, std and GoogleTest headers"
       ${ddblab_pch_default})

set(DDBLAB_PCH_HEADERS
    <nlohmann/json.hpp> <algorithm> <chrono> <cstdint> <functional> <map>
    <memory> <mutex> <optional> <string> <string_view> <unordered_map>
    <utility> <variant> <vector>)

# ddblab_pch_holder(name [HEADERS...] [DEPS...]): an object library whose only
# job is to build the precompiled header that targets with the same flags
# reuse (target_precompile_headers REUSE_FROM).
function(ddblab_pch_holder name)
  cmake_parse_arguments(ARG "" "" "HEADERS;DEPS" ${ARGN})
  add_library(${name} OBJECT ${PROJECT_SOURCE_DIR}/cmake/pch_anchor.cc)
  target_compile_options(${name} PRIVATE ${DDBLAB_WARNINGS})
  target_link_libraries(${name} PRIVATE nlohmann_json::nlohmann_json ${ARG_DEPS})
  target_precompile_headers(${name} PRIVATE ${DDBLAB_PCH_HEADERS} ${ARG_HEADERS})
endfunction()

if(DDBLAB_PCH)
  ddblab_pch_holder(ddblab_pch_lib)
endif()

# ddblab_use_pch(target holder): `target` reuses `holder`'s precompiled
# header when DDBLAB_PCH is on.
function(ddblab_use_pch target holder)
  if(DDBLAB_PCH AND TARGET ${holder})
    target_precompile_headers(${target} REUSE_FROM ${holder})
  endif()
endfunction()
