#include "impl/check/check.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace spotcheck::check {

namespace {

// One per thread: each campaign thread runs its own world with its own handler.
thread_local AssertionHandler t_handler = nullptr;

std::string describe(const char* condition, const char* file, int line) {
  return std::string("invariant failed: ") + condition + " (" + file + ":" + std::to_string(line) + ")";
}

}  // namespace

InvariantViolation::InvariantViolation(const char* condition, const char* file, int line)
    : std::logic_error(describe(condition, file, line)), _condition(condition), _file(file), _line(line) {}

void abort_on_invariant_failure(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "%s\n", describe(condition, file, line).c_str());
  std::fflush(stderr);
  std::abort();
}

void throw_invariant_violation(const char* condition, const char* file, int line) {
  throw InvariantViolation(condition, file, line);
}

AssertionHandler set_assertion_handler(AssertionHandler handler) {
  const AssertionHandler previous = assertion_handler();
  t_handler = handler;
  return previous;
}

AssertionHandler assertion_handler() { return t_handler != nullptr ? t_handler : &abort_on_invariant_failure; }

namespace detail {

void assertion_failed(const char* condition, const char* file, int line) {
  assertion_handler()(condition, file, line);
  // A handler that returns breaks the contract: the invariant still failed.
  abort_on_invariant_failure(condition, file, line);
}

}  // namespace detail

}  // namespace spotcheck::check
