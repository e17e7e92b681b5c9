#include "reports/campaign_json.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

#include "impl/json_guard/json_guard.h"

namespace spotcheck::reports {

namespace {

using nlohmann::json;

json outcome_json(const scenarios::SeedOutcome& o) {
  json j{{"seed", o.seed}, {"traceHash", o.trace_hash}, {"events", o.events}, {"simulatedUs", o.simulated_us}};
  if (o.violation.has_value()) {
    j["violation"] = {{"property", o.violation->property},
                      {"message", o.violation->message},
                      {"timeUs", o.violation->time_us},
                      {"eventIndex", o.violation->event_index}};
  }
  if (o.failure.has_value()) {
    j["failure"] = *o.failure;
  }
  if (!o.out_of_contract_needed.empty()) {
    j["outOfContractNeeded"] = o.out_of_contract_needed;
  }
  return j;
}

json marks_json(const platform::MarkCounts& counts) {
  json j = json::object();
  for (std::size_t i = 0; i < platform::kMarkCount; ++i) {
    j[std::string(platform::kMarks[i].name)] = counts[i];
  }
  return j;
}

// A field of `j`, typed: a missing or mistyped one throws with its name.
template <class T>
T field(const json& j, const char* name) {
  const auto it = j.find(name);
  if (it == j.end()) {
    throw std::runtime_error(std::string("lacks field '") + name + "'");
  }
  try {
    return it->get<T>();
  } catch (const json::exception&) {
    throw std::runtime_error(std::string("field '") + name + "' has the wrong type");
  }
}

scenarios::SeedOutcome outcome_of(const json& j) {
  scenarios::SeedOutcome o;
  o.seed = field<std::uint64_t>(j, "seed");
  o.trace_hash = field<std::uint64_t>(j, "traceHash");
  o.events = field<std::uint64_t>(j, "events");
  o.simulated_us = field<std::int64_t>(j, "simulatedUs");
  if (j.contains("violation")) {
    const json& v = j.at("violation");
    o.violation = scenarios::Violation{field<std::string>(v, "property"), field<std::string>(v, "message"),
                                       field<std::int64_t>(v, "timeUs"), field<std::uint64_t>(v, "eventIndex")};
  }
  if (j.contains("failure")) {
    o.failure = field<std::string>(j, "failure");
  }
  if (j.contains("outOfContractNeeded")) {
    o.out_of_contract_needed = field<std::vector<std::string>>(j, "outOfContractNeeded");
  }
  if (o.ok()) {
    throw std::runtime_error("a kept failure of seed " + std::to_string(o.seed) + " has neither violation nor failure");
  }
  return o;
}

platform::MarkCounts marks_of(const json& j) {
  platform::MarkCounts counts{};
  for (const auto& [name, count] : j.items()) {
    const auto mark = platform::parse_mark(name);
    if (!mark.has_value()) {
      throw std::runtime_error("unknown mark '" + json_guard::one_line(name, 64) + "' (another build?)");
    }
    counts[static_cast<std::size_t>(*mark)] = count.get<std::uint64_t>();
  }
  return counts;
}

std::vector<scenarios::SeedOutcome> outcomes_of(const json& j, const char* name) {
  std::vector<scenarios::SeedOutcome> out;
  for (const json& o : field<json>(j, name)) {
    out.push_back(outcome_of(o));
  }
  return out;
}

CampaignResult result_of(const json& j) {
  if (field<int>(j, "spotcheckCampaign") != kCampaignJsonVersion) {
    throw std::runtime_error("spotcheckCampaign version " + std::to_string(field<int>(j, "spotcheckCampaign")) +
                             " is not " + std::to_string(kCampaignJsonVersion));
  }
  CampaignResult r;
  r.scenario = field<std::string>(j, "scenario");
  const json& shard = field<json>(j, "shard");
  r.shard = Shard{field<std::uint32_t>(shard, "index"), field<std::uint32_t>(shard, "count"),
                  field<std::uint64_t>(shard, "firstSeed"), field<std::uint64_t>(shard, "seeds")};
  if (r.shard.count == 0 || r.shard.index == 0 || r.shard.index > r.shard.count) {
    throw std::runtime_error("shard " + std::to_string(r.shard.index) + "/" + std::to_string(r.shard.count) +
                             " is not K/N with 1 <= K <= N");
  }
  r.first_seed = field<std::uint64_t>(j, "firstSeed");
  r.seeds_requested = field<std::uint64_t>(j, "seedsRequested");
  r.seeds_run = field<std::uint64_t>(j, "seedsRun");
  r.swarm = field<bool>(j, "swarm");
  r.checked_determinism = field<bool>(j, "checkedDeterminism");
  r.determinism_sample = field<double>(j, "determinismSample");
  r.determinism_rechecked = field<std::uint64_t>(j, "determinismRechecked");
  r.jobs = field<unsigned>(j, "jobs");
  r.events_total = field<std::uint64_t>(j, "events");
  r.simulated_us_total = field<std::int64_t>(j, "simulatedUs");
  r.wall_seconds = field<double>(j, "wallSeconds");
  r.interrupted_by = field<int>(j, "interruptedBy");
  r.violating_seeds = field<std::uint64_t>(j, "violatingSeeds");
  r.run_failure_seeds = field<std::uint64_t>(j, "runFailureSeeds");
  r.mismatching_seeds = field<std::uint64_t>(j, "mismatchingSeeds");
  r.failures = outcomes_of(j, "failures");
  for (const json& k : field<json>(j, "failureKinds")) {
    r.failure_kinds.push_back(FailureKind{field<bool>(k, "runFailure"), field<std::string>(k, "signature"),
                                          field<std::string>(k, "firstMessage"), field<std::uint64_t>(k, "firstSeed"),
                                          field<std::uint64_t>(k, "seeds")});
  }
  r.other_failure_seeds = field<std::uint64_t>(j, "otherFailureSeeds");
  for (const json& m : field<json>(j, "mismatches")) {
    r.mismatches.push_back(DeterminismMismatch{
        field<std::uint64_t>(m, "seed"),
        scenarios::Divergence{field<std::uint64_t>(m, "eventIndex"), field<std::string>(m, "first"),
                              field<std::string>(m, "second")}});
  }
  r.violations_per_property = field<std::map<std::string, std::uint64_t>>(j, "violationsPerProperty");
  r.mark_hits = marks_of(field<json>(j, "markHits"));
  r.mark_seeds = marks_of(field<json>(j, "markSeeds"));
  if (j.contains("requiredMarks")) {
    std::vector<platform::Mark> required;
    for (const std::string& name : field<std::vector<std::string>>(j, "requiredMarks")) {
      const auto mark = platform::parse_mark(name);
      if (!mark.has_value()) {
        throw std::runtime_error("unknown required mark '" + json_guard::one_line(name, 64) + "'");
      }
      required.push_back(*mark);
    }
    r.required_marks = required;
  }
  r.out_of_contract = field<std::string>(j, "outOfContract");
  r.out_of_contract_assumptions = field<std::map<std::string, std::string>>(j, "outOfContractAssumptions");
  r.out_of_contract_seeds = field<std::uint64_t>(j, "outOfContractSeeds");
  r.out_of_contract_per_kind = field<std::map<std::string, std::uint64_t>>(j, "outOfContractPerKind");
  r.out_of_contract_failures = outcomes_of(j, "outOfContractFailures");
  for (const auto& [seed, path] : field<std::map<std::string, std::string>>(j, "traceFiles")) {
    if (seed.empty() || seed.size() > 20 || seed.find_first_not_of("0123456789") != std::string::npos) {
      throw std::runtime_error("traceFiles has a key that is not a seed");
    }
    r.trace_files[std::stoull(seed)] = path;
  }
  return r;
}

}  // namespace

std::string campaign_to_json(const CampaignResult& r) {
  json failures = json::array();
  for (const auto& f : r.failures) {
    failures.push_back(outcome_json(f));
  }
  json ooc_failures = json::array();
  for (const auto& f : r.out_of_contract_failures) {
    ooc_failures.push_back(outcome_json(f));
  }
  json kinds = json::array();
  for (const FailureKind& k : r.failure_kinds) {
    kinds.push_back({{"runFailure", k.run_failure}, {"signature", k.signature}, {"firstMessage", k.first_message},
                     {"firstSeed", k.first_seed}, {"seeds", k.seeds}});
  }
  json mismatches = json::array();
  for (const DeterminismMismatch& m : r.mismatches) {
    mismatches.push_back({{"seed", m.seed}, {"eventIndex", m.divergence.event_index},
                          {"first", m.divergence.first}, {"second", m.divergence.second}});
  }
  json j{{"spotcheckCampaign", kCampaignJsonVersion},
         {"scenario", r.scenario},
         {"shard", {{"index", r.shard.index}, {"count", r.shard.count}, {"firstSeed", r.shard.first_seed},
                    {"seeds", r.shard.seeds}}},
         {"firstSeed", r.first_seed},
         {"seedsRequested", r.seeds_requested},
         {"seedsRun", r.seeds_run},
         {"swarm", r.swarm},
         {"checkedDeterminism", r.checked_determinism},
         {"determinismSample", r.determinism_sample},
         {"determinismRechecked", r.determinism_rechecked},
         {"jobs", r.jobs},
         {"events", r.events_total},
         {"simulatedUs", r.simulated_us_total},
         {"wallSeconds", r.wall_seconds},
         {"interruptedBy", r.interrupted_by},
         {"violatingSeeds", r.violating_seeds},
         {"runFailureSeeds", r.run_failure_seeds},
         {"mismatchingSeeds", r.mismatching_seeds},
         {"failures", failures},
         {"failureKinds", kinds},
         {"otherFailureSeeds", r.other_failure_seeds},
         {"mismatches", mismatches},
         {"violationsPerProperty", r.violations_per_property},
         {"markHits", marks_json(r.mark_hits)},
         {"markSeeds", marks_json(r.mark_seeds)},
         {"outOfContract", r.out_of_contract},
         {"outOfContractAssumptions", r.out_of_contract_assumptions},
         {"outOfContractSeeds", r.out_of_contract_seeds},
         {"outOfContractPerKind", r.out_of_contract_per_kind},
         {"outOfContractFailures", ooc_failures},
         {"traceFiles", json::object()}};
  for (const auto& [seed, path] : r.trace_files) {
    j["traceFiles"][std::to_string(seed)] = path;
  }
  if (r.required_marks.has_value()) {
    json required = json::array();
    for (platform::Mark mark : *r.required_marks) {
      required.push_back(std::string(platform::to_string(mark)));
    }
    j["requiredMarks"] = required;
  }
  return j.dump(1) + "\n";
}

std::variant<CampaignResult, std::string> campaign_from_json(std::string_view text) {
  if (text.size() > kCampaignJsonBytesMax) {
    return std::string("larger than ") + std::to_string(kCampaignJsonBytesMax) + " bytes";
  }
  if (auto guarded = json_guard::check(text)) {
    return guarded->message;
  }
  try {
    const json j = json::parse(text);
    if (!j.is_object()) {
      return std::string("not a JSON object");
    }
    return result_of(j);
  } catch (const json::exception& e) {
    return "not a campaign summary: " + json_guard::one_line(e.what());
  } catch (const std::runtime_error& e) {
    return json_guard::one_line(e.what());
  }
}

}  // namespace spotcheck::reports
