// What `spotcheck shrink` prints: a configuration side by side before and after, and the summary
// around the story (docs/replay.md shows an example).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "replay/shrink/seed_shrink.h"
#include "replay/shrink/shrinker.h"

namespace spotcheck::replay {

// "nodes 4, objects 6, safety phase 60s, liveness 40s, traffic 75s, faults: node-pause(gap=8s,max=30s)"
std::string describe_config(const scenarios::authority::AuthorityScenarioConfig& config);
// "nodes 6, actor IDs 3, spot IDs 2, clients per node 2, safety phase 45s, ..."
std::string describe_config(const scenarios::creation::CreationScenarioConfig& config);
// "client nodes 2, server nodes 3, spot IDs 2, clients per node 2, safety phase 30s, ..."
std::string describe_config(const scenarios::instance::InstanceScenarioConfig& config);
std::string describe_config(const scenarios::files::AnyScenarioConfig& config);
// One progress line: "  kept: node-pause gap 8s -> 16s (run 12)".
std::string progress_line(const ShrinkProgress& progress);
// The command that replays the written scenario file.
std::string shrunk_replay_command(const std::string& file, std::uint64_t seed);
// Before/after, runs used, the violation, and (when `file` is not empty) "wrote <file>". The story
// (story.h) and the replay command follow it.
void print_shrink_summary(const ShrinkResult& result, const std::string& file, std::ostream& out);
// Both stages: before (the campaign's run), after the parameter passes, after the
// decision log; runs used; the failure.
void print_seed_shrink_summary(const SeedShrinkResult& result, std::ostream& out);

}  // namespace spotcheck::replay
