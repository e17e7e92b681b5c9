// Texts cut to fit a picture: at a character boundary of UTF-8 (a violation's sentence may hold
// "§"), with "…" where something was cut.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace spotcheck::reports {

// At most `chars_max` characters (code points) of `text`, the last one "…" when it was longer.
std::string clip_text(std::string_view text, std::size_t chars_max);
// `text` broken at spaces into lines of at most `chars_max` characters (a longer word is cut),
// at most `lines_max` lines (the last one ending in "…" when text was left over).
std::vector<std::string> wrap_text(std::string_view text, std::size_t chars_max, std::size_t lines_max);

}  // namespace spotcheck::reports
