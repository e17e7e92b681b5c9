// spotcheck list: what a campaign can name.
#include <iomanip>
#include <iostream>
#include <string>

#include "cli/commands.h"
#include "faults/fault_plan.h"
#include "faults/out_of_contract.h"
#include "impl/platform/marks.h"
#include "properties/registry.h"
#include "scenarios/files/planted_bug_catalogue.h"
#include "scenarios/registry/registry.h"

namespace spotcheck::cli {

namespace {

void list_planted_bugs() {
  std::cout << "\nPlanted bugs (a scenario file's \"plantedBugs\"; the property named catches each in the scenario named)";
  std::cout << (planted::kPlantedBugsCompiled ? ":\n" : " - NOT compiled into this build (SPOTCHECK_PLANTED_BUGS=OFF):\n");
  for (const auto& bug : scenarios::files::planted_bugs()) {
    std::cout << "  " << std::left << std::setw(34) << bug.name << " " << bug.description << "\n"
              << "  " << std::setw(34) << "" << " caught in " << bug.caught_in << " by " << bug.caught_by << "\n";
  }
}

// Each coverage mark with the built-in scenarios that require it (docs/marks.md).
void list_marks() {
  std::cout << "\nCoverage marks (counted in every campaign; --require-marks holds a scenario to its own):\n";
  for (std::size_t i = 0; i < platform::kMarkCount; ++i) {
    std::string required_by;
    for (const auto* s : scenarios::builtin_scenarios().all()) {
      for (platform::Mark mark : s->required_marks()) {
        if (static_cast<std::size_t>(mark) == i) {
          required_by += (required_by.empty() ? "" : ", ") + s->name();
        }
      }
    }
    std::cout << "  " << std::left << std::setw(34) << platform::kMarks[i].name << " " << platform::kMarks[i].description
              << "\n  " << std::setw(34) << "" << " "
              << (required_by.empty() ? std::string("required by no built-in scenario") : "required by " + required_by)
              << "\n";
  }
}

}  // namespace

void add_list_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("list", "List scenarios, fault kinds, properties and planted bugs");
  cmd->callback([&exit_code] {
    std::cout << "Scenarios:\n";
    for (const auto* s : scenarios::builtin_scenarios().all()) {
      std::cout << "  " << std::left << std::setw(20) << s->name() << " " << s->description() << "\n";
    }
    std::cout << "\nFault kinds (a scenario's fault plan; --swarm draws them per seed):\n";
    for (const auto& fault : faults::all_fault_kinds()) {
      if (!faults::is_out_of_contract(fault.kind)) {
        std::cout << "  " << std::left << std::setw(20) << fault.name << " " << fault.description << "\n";
      }
    }
    std::cout << "\nOut-of-contract fault kinds (only with --out-of-contract; each breaks a spec assumption):\n";
    for (const auto& info : faults::out_of_contract_kinds()) {
      std::cout << "  " << std::left << std::setw(20) << faults::to_string(info.kind) << " "
                << info.assumption << "\n";
    }
    std::cout << "\nProperties (checked online on every event of a Location scenario):\n";
    for (const auto& property : properties::all_properties()) {
      std::cout << "  " << std::left << std::setw(20) << property.name << " " << property.description << "\n";
    }
    list_marks();
    list_planted_bugs();
    exit_code = kExitPassed;
  });
}

}  // namespace spotcheck::cli
