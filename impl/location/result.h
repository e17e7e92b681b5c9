// A value or a typed error: the one return type of the Location runtime's operations. Nothing
// throws for an expected outcome (spec §10). errors.h names the runtime's Error (the default E);
// the creation Manager uses the same template with its ManagerError (creation/manager_types.h).
#pragma once

#include <utility>
#include <variant>

#include "impl/check/check.h"

namespace spotcheck::location {

struct Error;  // errors.h

template <class T, class E = Error>
class Result {
 public:
  Result(T value) : _state(std::in_place_index<0>, std::move(value)) {}  // NOLINT
  Result(E error) : _state(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  bool ok() const { return _state.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & {
    SPOTCHECK_ASSERT(ok());
    return std::get<0>(_state);
  }
  const T& value() const& {
    SPOTCHECK_ASSERT(ok());
    return std::get<0>(_state);
  }
  T&& value() && {
    SPOTCHECK_ASSERT(ok());
    return std::get<0>(std::move(_state));
  }
  const E& error() const {
    SPOTCHECK_ASSERT(!ok());
    return std::get<1>(_state);
  }
  // The error's kind (E::kind): ErrorKind for Error, ManagerErrorKind for ManagerError.
  auto error_kind() const { return error().kind; }

 private:
  std::variant<T, E> _state;
};

// One attempt of a bounded retry loop: its result, and whether the loop should try again (a
// contention loser, or a write whose outcome the next attempt's read must tell). Returned
// instead of a `bool& retry` out-parameter.
template <class T, class E = Error>
struct Attempt {
  Result<T, E> result;
  bool retry = false;

  static Attempt settled(Result<T, E> r) { return Attempt{std::move(r), false}; }
  static Attempt again(Result<T, E> r) { return Attempt{std::move(r), true}; }
};

}  // namespace spotcheck::location
