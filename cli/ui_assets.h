// cli/ui_assets.h: the web console's static files (ui/ at the repository
// root), compiled into the binary at build time by cmake/EmbedFiles.cmake.
//
// Ownership: the bytes are static data of the program.
// Thread-safety: read-only after first use (a function-local static).
#pragma once

#include <string_view>
#include <vector>

namespace ddblab::cli {

struct UiFile {
  std::string_view path;  // relative to ui/, e.g. "index.html"
  std::string_view body;
};

// Every file of ui/, as listed in cli/CMakeLists.txt.
const std::vector<UiFile>& EmbeddedUiFiles();

}  // namespace ddblab::cli
