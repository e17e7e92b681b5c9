// A failing run's story in an HTML page (the campaign report's stories, the shrunk failure's
// page): its picture — the sequence diagram (sequence_diagram.h) with its legend and the table of
// its records' versions (record_versions.h) — then the story's lines, key events and faults
// highlighted. Everything from a run is escaped.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "reports/record_versions.h"
#include "reports/sequence_diagram.h"

namespace spotcheck::reports {

// The story of one failing seed, already told (replay/story prints it; the CLI replays the seed
// with its trace kept). Lines starting with "  *" mark key events, "  !" faults. Its picture
// (replay/diagram draws it from the same trace): the sequence diagram and the versions of the
// records it is about; absent when the replay did not repeat the campaign's run.
struct FailureStory {
  std::uint64_t seed = 0;
  std::vector<std::string> lines;
  std::optional<SequenceDiagram> diagram = std::nullopt;
  std::optional<RecordVersions> versions = std::nullopt;
};

// <section id="seed-N"> with an <h3> heading `title` (escaped; "seed N" when empty).
void write_story_section(const FailureStory& story, std::ostream& out, const std::string& title = "");

}  // namespace spotcheck::reports
