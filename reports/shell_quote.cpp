#include "reports/shell_quote.h"

namespace spotcheck::reports {

namespace {

bool safe_in_shell(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         c == '.' || c == '/' || c == ':' || c == '=' || c == '@' || c == '%' || c == '+' || c == ',';
}

}  // namespace

std::string shell_quote(std::string_view word) {
  bool safe = !word.empty() && word.front() != '-';
  for (const char c : word) {
    safe = safe && safe_in_shell(c);
  }
  if (safe) {
    return std::string(word);
  }
  std::string quoted = "'";
  for (const char c : word) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  quoted += "'";
  return quoted;
}

}  // namespace spotcheck::reports
