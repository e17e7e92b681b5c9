// A failing run's story as the HTML reports show it (reports::FailureStory): the story's printed
// lines (replay/story) and its picture (story_picture.h), both from the run's kept trace. The
// campaign report (`spotcheck run --html`) tells its first failing seeds this way, the shrunk
// failure's page (`spotcheck shrink --html`) its shrunk run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reports/story_html.h"
#include "scenarios/registry/scenario.h"

namespace spotcheck::replay {

// `event_lines` is the run's kept trace, `violation` its violation (or failure_of()'s stand-in).
reports::FailureStory failure_story(std::uint64_t seed, const std::vector<std::string>& event_lines,
                                    const scenarios::Violation& violation);

}  // namespace spotcheck::replay
