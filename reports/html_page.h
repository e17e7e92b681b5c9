// The frame of spotcheck's HTML pages (the campaign report, the shrunk failure's page): one
// self-contained file, its only style in one <style> (the sequence diagram's included), no script
// and no outside resource.
#pragma once

#include <ostream>
#include <string_view>

namespace spotcheck::reports {

// From <!DOCTYPE html> to <body>; `title` is escaped.
void write_page_start(std::string_view title, std::ostream& out);
// </body></html>.
void write_page_end(std::ostream& out);

}  // namespace spotcheck::reports
