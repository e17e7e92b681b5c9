// A word the shell reads back as itself: printed commands (replay, shrink) paste back unchanged
// even when a path holds a space, a quote or a '<'.
#pragma once

#include <string>
#include <string_view>

namespace spotcheck::reports {

// Unchanged when every character is safe (letters, digits, and _ - . / : = @ % + ,); otherwise
// wrapped in single quotes, each ' written as '\''. The empty word is ''.
std::string shell_quote(std::string_view word);

}  // namespace spotcheck::reports
