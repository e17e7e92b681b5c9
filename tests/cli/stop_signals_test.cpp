// scenarios/common/stop_signals: SIGINT/SIGTERM become a polled stop request; the previous
// dispositions come back; the second signal is ignored or gets the default action, as asked.
#include <gtest/gtest.h>

#include <csignal>

#include "scenarios/common/stop_signals.h"

namespace spotcheck::scenarios {
namespace {

TEST(StopSignals, TurnSigintAndSigtermIntoARequestAndRestoreTheOldHandlers) {
  struct sigaction before {};
  ASSERT_EQ(sigaction(SIGTERM, nullptr, &before), 0);
  {
    const StopSignals signals(StopSignals::kSecondIgnored);
    EXPECT_EQ(StopSignals::requested(), 0);
    ASSERT_EQ(std::raise(SIGTERM), 0);  // the process lives on
    EXPECT_EQ(StopSignals::requested(), SIGTERM);
    ASSERT_EQ(std::raise(SIGINT), 0);
    ASSERT_EQ(std::raise(SIGTERM), 0);  // a second one does nothing more
    EXPECT_EQ(StopSignals::requested(), SIGTERM);  // the first one wins
    EXPECT_EQ(exit_status_for_signal(SIGINT), 130);
    EXPECT_EQ(exit_status_for_signal(SIGTERM), 143);
  }
  struct sigaction after {};
  ASSERT_EQ(sigaction(SIGTERM, nullptr, &after), 0);
  EXPECT_EQ(after.sa_handler, before.sa_handler);
  const StopSignals again(StopSignals::kSecondIgnored);
  EXPECT_EQ(StopSignals::requested(), 0);  // a new StopSignals starts clean
}

TEST(StopSignals, WithSecondKillsTheSecondSignalFindsTheDefaultAction) {
  const StopSignals signals(StopSignals::kSecondKills);
  struct sigaction installed {};
  ASSERT_EQ(sigaction(SIGINT, nullptr, &installed), 0);
  EXPECT_NE(installed.sa_handler, SIG_DFL);
  ASSERT_EQ(std::raise(SIGINT), 0);
  EXPECT_EQ(StopSignals::requested(), SIGINT);
  struct sigaction now {};
  ASSERT_EQ(sigaction(SIGINT, nullptr, &now), 0);
  EXPECT_EQ(now.sa_handler, SIG_DFL) << "a second Ctrl-C ends the process at once";
}

}  // namespace
}  // namespace spotcheck::scenarios
