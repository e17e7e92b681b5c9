// The one assertion family of Spotcheck: always on, in every build type (NDEBUG or not), in the
// protocol, the store providers, the records, the model and the simulator alike. A simulator or a
// protocol that runs with its assertions off proves nothing (TigerBeetle's rule).
//
//   SPOTCHECK_ASSERT(condition)        calls the calling thread's assertion handler. The default
//                                      prints "invariant failed: <condition> (<file>:<line>)" and
//                                      aborts. Inside a simulated run the scenario installs
//                                      throw_invariant_violation (ScopedAssertionHandler): the
//                                      failure leaves the task as an InvariantViolation, the seed
//                                      becomes a run failure and the campaign's other seeds run on.
//   SPOTCHECK_ASSERT_ABORT(condition)  always aborts: the simulator's own machinery (the kernel,
//                                      the scheduler, fibers), the reference model, destructors and
//                                      noexcept code, where unwinding would corrupt the world.
//
// One condition per assertion. The handler is thread_local: parallel worlds (one per campaign
// thread) never see each other's, and fibers of one world share their thread's. A handler must
// not return; if it does, the process aborts anyway. Depends on nothing.
#pragma once

#include <stdexcept>

namespace spotcheck::check {

// Called with the failed condition's text and its source location. Must not return.
using AssertionHandler = void (*)(const char* condition, const char* file, int line);

// A SPOTCHECK_ASSERT that failed under throw_invariant_violation.
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

// The default: print "invariant failed: <condition> (<file>:<line>)" and abort.
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
  explicit ScopedAssertionHandler(AssertionHandler handler) : _previous(set_assertion_handler(handler)) {}
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

}  // namespace spotcheck::check

#define SPOTCHECK_ASSERT(condition)                                                   \
  do {                                                                                \
    if (!(condition)) [[unlikely]] {                                                  \
      ::spotcheck::check::detail::assertion_failed(#condition, __FILE__, __LINE__);  \
    }                                                                                 \
  } while (false)

#define SPOTCHECK_ASSERT_ABORT(condition)                                                \
  do {                                                                                   \
    if (!(condition)) [[unlikely]] {                                                     \
      ::spotcheck::check::abort_on_invariant_failure(#condition, __FILE__, __LINE__);   \
    }                                                                                    \
  } while (false)
