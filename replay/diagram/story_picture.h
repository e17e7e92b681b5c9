// The picture of a violation's story (docs/campaigns.md "Read the HTML report"): from the run's
// kept trace, a sequence diagram of the story's window — the story's nodes and the stores as
// lanes, the messages and store requests between them (lost ones marked), each host run's
// owner-lease and admission windows, pauses, kills and starts, the story's events, and the
// violating event with the property's sentence — and the versions of the store records the
// violation is about. Reads the trace once, up to the violating event. Bounded by
// reports::kDiagram*Max and RecordVersionLog's bounds; the same trace gives the same picture.
#pragma once

#include <string>
#include <vector>

#include "replay/story/story.h"
#include "reports/record_versions.h"
#include "reports/sequence_diagram.h"
#include "scenarios/registry/scenario.h"

namespace spotcheck::replay {

struct StoryPicture {
  reports::SequenceDiagram diagram;
  reports::RecordVersions versions;
};

// `story` is tell_story(event_lines, violation)'s.
StoryPicture picture_story(const std::vector<std::string>& event_lines, const Story& story,
                           const scenarios::Violation& violation);

}  // namespace spotcheck::replay
