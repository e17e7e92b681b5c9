#include "replay/diagram/record_subjects.h"

#include <algorithm>

namespace spotcheck::replay {

bool key_about_subjects(std::string_view key, const std::vector<std::string>& subjects) {
  while (!key.empty()) {
    const std::size_t slash = key.find('/');
    const std::string_view part = key.substr(0, slash);
    if (std::find(subjects.begin(), subjects.end(), part) != subjects.end()) {
      return true;
    }
    key = slash == std::string_view::npos ? std::string_view{} : key.substr(slash + 1);
  }
  return false;
}

}  // namespace spotcheck::replay
