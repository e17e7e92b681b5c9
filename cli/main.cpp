// spotcheck: deterministic simulation and model checking of the ZLink Location Runtime.
#include <iostream>

#include "cli/commands.h"
#include "cli/records/record_commands.h"
#include "cli/redis_command.h"

int main(int argc, char** argv) {
  using namespace spotcheck::cli;
  CLI::App app{"spotcheck: deterministic simulation and model checking of the ZLink Location Runtime"};
  app.require_subcommand(1);
  int exit_code = kExitPassed;
  add_run_command(app, exit_code);
  add_replay_command(app, exit_code);
  add_shrink_command(app, exit_code);
  add_list_command(app, exit_code);
  add_redis_command(app, exit_code);
  add_record_commands(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return kExitPassed;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return kExitPassed;
  } catch (const CLI::ParseError& e) {
    std::cerr << "spotcheck: " << e.what() << " (see spotcheck --help)\n";
    return kExitUsage;
  } catch (const UsageError& e) {
    std::cerr << "spotcheck: " << e.what() << "\n";
    return kExitUsage;
  }
  return exit_code;
}
