// One self-contained HTML page for a shrunk failure (`spotcheck shrink --html FILE`): what the
// search kept (the shrink summary, before and after), the command that replays the shrunk run, and
// the shrunk run's story with its picture (story_html.h). The shrunk story is short, so its
// sequence diagram is the clearest picture of the failure.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "reports/story_html.h"

namespace spotcheck::reports {

struct ShrunkFailurePage {
  std::string scenario;
  std::uint64_t seed = 0;
  std::string property;        // the violated property, or "run failure"
  std::string summary;         // the shrink summary as `spotcheck shrink` prints it
  std::string replay_command;  // replays the shrunk run
  FailureStory story;
};

void write_shrunk_report(const ShrunkFailurePage& page, std::ostream& out);

}  // namespace spotcheck::reports
