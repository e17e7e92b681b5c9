#include "sim/fiber/stack_allocator.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

namespace spotcheck::sim {

void unpoison_stack(const boost::context::stack_context& stack) {
#if defined(__SANITIZE_ADDRESS__)
  char* top = static_cast<char*>(stack.sp);
  ASAN_UNPOISON_MEMORY_REGION(top - stack.size, stack.size);
#else
  (void)stack;
#endif
}

}  // namespace spotcheck::sim
