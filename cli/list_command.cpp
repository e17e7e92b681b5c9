// spotcheck list: what a campaign can name.
#include <iomanip>
#include <iostream>

#include "cli/commands.h"
#include "scenarios/registry/registry.h"

namespace spotcheck::cli {

void add_list_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("list", "List scenarios, fault kinds and properties");
  cmd->callback([&exit_code] {
    std::cout << "Scenarios:\n";
    for (const auto* s : scenarios::builtin_scenarios().all()) {
      std::cout << "  " << std::left << std::setw(18) << s->name() << " " << s->description() << "\n";
    }
    exit_code = kExitPassed;
  });
}

}  // namespace spotcheck::cli
