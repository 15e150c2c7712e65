// emulator/api/result.h: Result<T>, a value or an Error (expected-like).
//
//   Result<int> r = Parse(text);
//   if (!r.ok()) return r.error();
//   use(*r);
//
// DDBLAB_RETURN_IF_ERROR(expr) and DDBLAB_ASSIGN_OR_RETURN(lhs, expr) return
// early with the error. Thread-safety: a plain value type.
#pragma once

#include <cassert>
#include <type_traits>
#include <utility>
#include <variant>

#include "emulator/api/error.h"

namespace ddblab {

template <class T>
class [[nodiscard]] Result {
 public:
  static_assert(!std::is_same_v<std::remove_cvref_t<T>, Error>,
                "Result<Error> is ambiguous");

  Result(const T& value) : rep_(std::in_place_index<0>, value) {}  // NOLINT
  Result(T&& value)
      : rep_(std::in_place_index<0>, std::move(value)) {}  // NOLINT
  template <class U>
  requires(std::is_constructible_v<T, U&&> &&
           !std::is_same_v<std::remove_cvref_t<U>, Error> &&
           !std::is_same_v<std::remove_cvref_t<U>, Result>)
      Result(U&& value)  // NOLINT
      : rep_(std::in_place_index<0>, std::forward<U>(value)) {}
  Result(const Error& error) : rep_(std::in_place_index<1>, error) {}  // NOLINT
  Result(Error&& error)                                                // NOLINT
      : rep_(std::in_place_index<1>, std::move(error)) {}

  bool ok() const { return rep_.index() == 0; }
  explicit operator bool() const { return ok(); }

  const T& value() const& {
    assert(ok());
    return std::get<0>(rep_);
  }
  T& value() & {
    assert(ok());
    return std::get<0>(rep_);
  }
  T&& value() && {
    assert(ok());
    return std::get<0>(std::move(rep_));
  }
  const Error& error() const& {
    assert(!ok());
    return std::get<1>(rep_);
  }
  Error&& error() && {
    assert(!ok());
    return std::get<1>(std::move(rep_));
  }

  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  std::variant<T, Error> rep_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(const Error& error) : error_(error), ok_(false) {}        // NOLINT
  Result(Error&& error) : error_(std::move(error)), ok_(false) {}  // NOLINT

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const& {
    assert(!ok_);
    return error_;
  }
  Error&& error() && {
    assert(!ok_);
    return std::move(error_);
  }

 private:
  Error error_;
  bool ok_ = true;
};

using Status = Result<void>;

inline Status OkStatus() { return Status(); }

}  // namespace ddblab

#define DDBLAB_CONCAT_INNER_(a, b) a##b
#define DDBLAB_CONCAT_(a, b) DDBLAB_CONCAT_INNER_(a, b)

#define DDBLAB_RETURN_IF_ERROR(expr)            \
  do {                                          \
    auto ddblab_status_ = (expr);               \
    if (!ddblab_status_.ok()) {                 \
      return std::move(ddblab_status_).error(); \
    }                                           \
  } while (false)

#define DDBLAB_ASSIGN_OR_RETURN(lhs, expr)                                     \
  DDBLAB_ASSIGN_OR_RETURN_IMPL_(DDBLAB_CONCAT_(ddblab_result_, __LINE__), lhs, \
                                expr)

#define DDBLAB_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                  \
  if (!tmp.ok()) return std::move(tmp).error();       \
  lhs = std::move(tmp).value()
