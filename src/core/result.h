// Result<T>: a value or the diagnostics that explain why there is none (std::expected is C++23).
#pragma once

#include <cassert>
#include <utility>
#include <variant>

#include "core/diagnostic.h"

namespace ct {

// The value of a Result that has nothing to say but "done" (Result<Unit>: a write, a command run).
struct Unit {};

template <typename T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}                // NOLINT(google-explicit-constructor)
  Result(Diagnostics errors) : v_(std::move(errors)) {     // NOLINT(google-explicit-constructor)
    assert(!std::get<Diagnostics>(v_).empty());
  }
  Result(Diagnostic error) : v_(Diagnostics{std::move(error)}) {}  // NOLINT

  [[nodiscard]] bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }

  // PRECONDITION: ok().
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  // PRECONDITION: !ok().
  [[nodiscard]] const Diagnostics& errors() const { return std::get<Diagnostics>(v_); }

 private:
  std::variant<T, Diagnostics> v_;
};

}  // namespace ct
