// Always-on invariant assertions for the Location runtime.
//
// `assert` vanishes under NDEBUG (RelWithDebInfo campaigns); a protocol invariant must not.
// A failed LOCATION_ASSERT calls the assertion handler installed on the calling thread. The
// default handler prints the condition and location and aborts the process. Inside a simulated
// run, install `throw_invariant_violation` (ScopedAssertionHandler) instead: the failure then
// leaves the task as an InvariantViolation, the simulator records a run failure for that seed,
// and the other seeds of the campaign keep running.
//
// The handler is thread_local: parallel worlds (one per campaign thread) never see each other's
// handler, and fibers of one world share their thread's. A handler must not return; if it does,
// the process aborts anyway.
//
// Where throwing is not allowed (a destructor, a noexcept function) use
// LOCATION_ASSERT_ABORT, which always aborts. The Location runtime has no such site today.
#pragma once

#include <stdexcept>
#include <string>

namespace spotcheck::location {

// Called with the failed condition's text and its source location. Must not return.
using AssertionHandler = void (*)(const char* condition, const char* file, int line);

// A LOCATION_ASSERT that failed under throw_invariant_violation.
class InvariantViolation : public std::logic_error {
 public:
  InvariantViolation(const char* condition, const char* file, int line);

  const char* condition() const { return _condition; }
  const char* file() const { return _file; }
  int line() const { return _line; }

 private:
  const char* _condition;
  const char* _file;
  int _line;
};

// The default: print "location invariant failed: <condition> (<file>:<line>)" and abort.
[[noreturn]] void abort_on_invariant_failure(const char* condition, const char* file, int line);
// Throws InvariantViolation (for simulated runs and tests).
[[noreturn]] void throw_invariant_violation(const char* condition, const char* file, int line);

// Installs `handler` (nullptr = the default) for the calling thread; returns the previous one.
AssertionHandler set_assertion_handler(AssertionHandler handler);
// The calling thread's handler (never nullptr).
AssertionHandler assertion_handler();

// Installs a handler for the calling thread for one scope, then restores the previous one.
class ScopedAssertionHandler {
 public:
  explicit ScopedAssertionHandler(AssertionHandler handler)
      : _previous(set_assertion_handler(handler)) {}
  ~ScopedAssertionHandler() { set_assertion_handler(_previous); }
  ScopedAssertionHandler(const ScopedAssertionHandler&) = delete;
  ScopedAssertionHandler& operator=(const ScopedAssertionHandler&) = delete;

 private:
  AssertionHandler _previous;
};

namespace detail {

// Calls the thread's handler; aborts if it returns.
[[noreturn]] void assertion_failed(const char* condition, const char* file, int line);

}  // namespace detail

}  // namespace spotcheck::location

#define LOCATION_ASSERT(condition)                                                      \
  do {                                                                                  \
    if (!(condition)) {                                                                 \
      ::spotcheck::location::detail::assertion_failed(#condition, __FILE__, __LINE__); \
    }                                                                                   \
  } while (false)

// For destructors and noexcept code, where a throwing handler would call std::terminate.
#define LOCATION_ASSERT_ABORT(condition)                                                          \
  do {                                                                                            \
    if (!(condition)) {                                                                           \
      ::spotcheck::location::abort_on_invariant_failure(#condition, __FILE__, __LINE__);         \
    }                                                                                             \
  } while (false)
