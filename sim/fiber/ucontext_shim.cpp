// Sanitizer build only (BOOST_USE_UCONTEXT + BOOST_USE_ASAN, set by SPOTCHECK_SANITIZE): Debian's
// libboost_context exports only the fcontext backend, but the header-only ucontext backend needs
// this one symbol. It returns the calling thread's active record, starting with a record that
// stands for the thread's own (main) context.
#if defined(BOOST_USE_UCONTEXT)

#include <boost/context/fiber.hpp>

namespace boost::context::detail {

fiber_activation_record*& fiber_activation_record::current() noexcept {
  thread_local fiber_activation_record main_record;
  thread_local fiber_activation_record* current_record = &main_record;
  return current_record;
}

}  // namespace boost::context::detail

#endif
