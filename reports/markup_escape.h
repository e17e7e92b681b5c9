// Text made safe inside XML and HTML, as element content or a quoted attribute value.
#pragma once

#include <string>
#include <string_view>

namespace spotcheck::reports::markup {

// & < > " ' become entities; control characters other than newline and tab become spaces.
std::string escape(std::string_view text);

}  // namespace spotcheck::reports::markup
