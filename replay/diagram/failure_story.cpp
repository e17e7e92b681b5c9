#include "replay/diagram/failure_story.h"

#include <sstream>

#include "replay/diagram/story_picture.h"
#include "replay/story/story.h"

namespace spotcheck::replay {

reports::FailureStory failure_story(std::uint64_t seed, const std::vector<std::string>& event_lines,
                                    const scenarios::Violation& violation) {
  reports::FailureStory story{seed, {}};
  const Story told = tell_story(event_lines, violation);
  std::ostringstream text;
  print_story(told, violation, text);
  std::istringstream lines(text.str());
  for (std::string line; std::getline(lines, line);) {
    story.lines.push_back(line);
  }
  StoryPicture picture = picture_story(event_lines, told, violation);
  story.diagram = std::move(picture.diagram);
  story.versions = std::move(picture.versions);
  return story;
}

}  // namespace spotcheck::replay
