// harness/consumer/function.h: what an event source mapping invokes.
//
// A Function takes the event (Lambda's JSON) and answers with an Invocation:
// the response payload, a function error (the handler threw, exited non-zero,
// crashed or timed out) or "not delivered" (the function could not be
// reached: like Lambda's throttles and service errors, it is retried without
// counting as a retry attempt).
//
//   CallableFunction: a C++ callable, in this thread.
//   CommandFunction:  argv run once per invocation; the event on stdin, the
//                     response on stdout (empty = null); exit 0 = success.
//   UrlFunction:      the event POSTed to an invoke URL, as to the Lambda
//                     Runtime Interface Emulator's
//                     /2015-03-31/functions/function/invocations; a 2xx body
//                     is the response, unless it is a function error: the
//                     X-Amz-Function-Error header (Lambda's Invoke API), an
//                     {"errorType", "errorMessage"} body or a "Task timed
//                     out" text (the RIE sends both with 200 and no header),
//                     or an empty body (the RIE's answer when the runtime
//                     process ends).
//
// Thread-safety: Invoke may be called from one thread at a time per object
// (a mapping invokes its function from the thread that steps it).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "emulator/api/result.h"

namespace ddblab::harness::consumer {

using json = nlohmann::json;

struct Invocation {
  enum class Kind { kOk, kFunctionError, kNotDelivered };
  Kind kind = Kind::kOk;
  json response;           // kOk: the payload (null when empty)
  std::string error_type;  // kFunctionError: e.g. "Error", "Timeout"
  std::string error_message;

  static Invocation Ok(json response) {
    return Invocation{Kind::kOk, std::move(response), "", ""};
  }
  static Invocation FunctionError(std::string type, std::string message) {
    return Invocation{Kind::kFunctionError, nullptr, std::move(type),
                      std::move(message)};
  }
  static Invocation NotDelivered(std::string message) {
    return Invocation{Kind::kNotDelivered, nullptr, "", std::move(message)};
  }
};

class Function {
 public:
  virtual ~Function() = default;
  virtual Invocation Invoke(const json& event) = 0;
  // For messages: "command node handler.mjs", "url http://...", "callable".
  virtual std::string Describe() const = 0;
};

// The callable's Result error is the function error (its message the
// errorMessage); a returned json is the response.
class CallableFunction final : public Function {
 public:
  using Fn = std::function<Result<json>(const json& event)>;
  explicit CallableFunction(Fn fn) : fn_(std::move(fn)) {}
  Invocation Invoke(const json& event) override;
  std::string Describe() const override { return "callable"; }

 private:
  Fn fn_;
};

class CommandFunction final : public Function {
 public:
  // timeout: Lambda's function timeout (3 s by default); a run that takes
  // longer is killed (SIGKILL) and is a function error of type "Timeout".
  explicit CommandFunction(
      std::vector<std::string> argv,
      std::chrono::milliseconds timeout = std::chrono::seconds(3));
  Invocation Invoke(const json& event) override;
  std::string Describe() const override;

 private:
  std::vector<std::string> argv_;
  std::chrono::milliseconds timeout_;
};

class UrlFunction final : public Function {
 public:
  // url: http://host:port/path. A connection failure is kNotDelivered.
  explicit UrlFunction(std::string url, std::chrono::milliseconds timeout =
                                            std::chrono::seconds(3));
  Invocation Invoke(const json& event) override;
  std::string Describe() const override { return "url " + url_; }

 private:
  std::string url_;
  std::chrono::milliseconds timeout_;
};

// Builds a function from the hosted API's "Function" object:
// {"Command": [argv...], "TimeoutSeconds": n} or {"Url": "..."}.
Result<std::unique_ptr<Function>> FunctionFromJson(const json& spec);

}  // namespace ddblab::harness::consumer
