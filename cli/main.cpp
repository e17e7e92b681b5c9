// spotcheck: deterministic simulation and model checking of the ZLink Location Runtime.
// Every way out is one line on stderr and a documented exit status (cli/commands.h): no
// exception escapes main, and a lost write to standard output is an error too.
#include <iostream>
#include <new>

#include "cli/commands.h"
#include "cli/records/record_commands.h"
#include "cli/redis_command.h"
#include "reports/output_file.h"

namespace {

int run_app(int argc, char** argv) {
  using namespace spotcheck::cli;
  CLI::App app{"spotcheck: deterministic simulation and model checking of the ZLink Location Runtime"};
  app.require_subcommand(1);
  int exit_code = kExitPassed;
  add_run_command(app, exit_code);
  add_replay_command(app, exit_code);
  add_shrink_command(app, exit_code);
  add_regress_command(app, exit_code);
  add_merge_command(app, exit_code);
  add_list_command(app, exit_code);
  add_redis_command(app, exit_code);
  add_locate_command(app, exit_code);
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
  }
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace spotcheck::cli;
  int code = kExitInternal;
  try {
    code = run_app(argc, argv);
    spotcheck::reports::check_standard_output();
  } catch (const UsageError& e) {
    std::cerr << "spotcheck: " << e.what() << "\n";
    return kExitUsage;
  } catch (const spotcheck::reports::OutputError& e) {
    std::cerr << "spotcheck: " << e.what() << "\n";
    return kExitInternal;
  } catch (const std::bad_alloc&) {
    std::cerr << "spotcheck: out of memory\n";
    return kExitInternal;
  } catch (const std::exception& e) {
    std::cerr << "spotcheck: internal error: " << e.what() << "\n";
    return kExitInternal;
  } catch (...) {
    std::cerr << "spotcheck: internal error: an unknown exception\n";
    return kExitInternal;
  }
  return code;
}
