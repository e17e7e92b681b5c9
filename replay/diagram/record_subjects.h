// Whether a Location Store key is about a violation's subjects: one of its '/'-separated parts
// (the key's NUL separators as the trace shows them) is an object id or an OwnerId the violation
// names ("authority/actor/player:0", "owner-lease/<owner>").
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace spotcheck::replay {

bool key_about_subjects(std::string_view key, const std::vector<std::string>& subjects);

}  // namespace spotcheck::replay
