// instance-route's own property `instance-type-choice` (§7.1): with the type omitted, a type is
// auto-selected only when the servers publish exactly one Instance Spot type.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "impl/location/events/instance_events.h"
#include "scenarios/instance/type_choice_checker.h"
#include "tests/properties/event_script.h"

namespace spotcheck::scenarios::instance {
namespace {

using properties::testing::owned_fields;
using properties::testing::Script;

std::optional<std::string> selected(Script& s, std::int64_t requested, const std::string& type,
                                    const std::string& outcome) {
  return s.feed(platform::seconds(1), 3, "instance.type_selected",
                owned_fields(location::events::InstanceTypeSelected{"chat-0", requested, type, outcome}));
}

// B16: two types published, the type omitted, one auto-selected.
TEST(TypeChoice, AnOmittedTypeAutoSelectedAmongTwoIsFlagged) {
  TypeChoiceChecker checker(std::set<std::string>{"Chat", "Lobby"});
  Script s(checker);
  EXPECT_EQ(selected(s, 1, "Chat", "created"), std::nullopt);            // named by the caller
  EXPECT_EQ(selected(s, 0, "", "invalid_operation"), std::nullopt);      // §7.1
  EXPECT_EQ(selected(s, 0, "", "not_found"), std::nullopt);              // no server could take it
  const std::optional<std::string> verdict = selected(s, 0, "Chat", "created");
  ASSERT_TRUE(verdict.has_value());
  EXPECT_NE(verdict->find("'Chat' was auto-selected, but every server publishes 2 Instance Spot types"),
            std::string::npos)
      << *verdict;
}

TEST(TypeChoice, TheOnlyTypeMayBeAutoSelected) {
  TypeChoiceChecker checker(std::set<std::string>{"Chat"});
  Script s(checker);
  EXPECT_EQ(selected(s, 0, "Chat", "created"), std::nullopt);
  EXPECT_TRUE(selected(s, 0, "Lobby", "created").has_value());
}

}  // namespace
}  // namespace spotcheck::scenarios::instance
