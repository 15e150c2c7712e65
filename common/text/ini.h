// common/text/ini.h: INI text as the AWS CLI and SDKs write their shared
// credentials and config files (~/.aws/credentials, ~/.aws/config). The one
// reader of `ddblab serve --credentials-file` (emulator/server/credentials)
// and of the harness's credentials and region chains
// (harness/backend/aws_config).
//
//   # a comment            ; also a comment; blank lines are skipped
//   [section]              the name trimmed ("[profile dev]" in config)
//   key = value            both trimmed; a later key replaces an earlier one
//   s3 =                   a key without a value opens a nested block: the
//     max_concurrent = 20  indented lines under it belong to it (skipped)
//
// Any other indented line is an ordinary line. Errors name the line:
//   line 3: unterminated section header
//   line 1: key = value before any [section]
//   line 2: expected [section] or key = value
//
// Thread-safety: a pure function.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ddblab::text {

struct IniSection {
  std::string name;
  std::map<std::string, std::string, std::less<>> values;
};

struct IniDocument {
  // In file order; a repeated [name] is a new entry.
  std::vector<IniSection> sections;
  // "" when the text parsed, else "line N: what is wrong" (and no sections).
  std::string error;
};

IniDocument ParseIni(std::string_view text);

}  // namespace ddblab::text
