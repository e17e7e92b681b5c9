// Planted bugs: deliberate protocol bugs a test plants to see a campaign catch them (design.md
// "Planted bugs"). This header is the one mechanism for the bugs that sit inside the protocol code;
// a bug that sits at a seam is a decorator of that seam instead (faults/planted/).
//
//   if (SPOTCHECK_PLANTED(_config.planted_bugs, kAdmitPastDeadline)) { ... }   // a planted branch
//   #if SPOTCHECK_PLANTED_BUGS ... #endif                                     // a planted function
//
// SPOTCHECK_PLANTED_BUGS is the CMake option of that name (ON by default and in every preset).
// When it is OFF, SPOTCHECK_PLANTED is the constant `false`: the planted branches compile away and
// the protocol's objects hold no planted-bug code. `grep -rn SPOTCHECK_PLANTED impl` lists them all.
// Depends on nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#ifndef SPOTCHECK_PLANTED_BUGS
#error "SPOTCHECK_PLANTED_BUGS must be defined (0 or 1): link the spotcheck_planted_bugs target"
#endif

namespace spotcheck::planted {

// Every planted bug; the user-facing names and descriptions are scenarios/files/planted_bug_catalogue.cpp.
enum class PlantedBug : std::uint8_t {
  kAdmitPastDeadline,             // OwnerLease::admit() lets work through past the deadline (§5)
  kUnfencedWrites,                // authority writes skip the admission check; the store seam
                                  // drops the own-lease condition (faults/planted/unfenced_store.h)
  kLeakCapacityOnRelease,         // Delete and Abort keep the released capacity counted (§3.3)
  kNewOwnerKeepsOwnerGeneration,  // NewOwner does not raise AuthorityOwnerGeneration (§3.2)
  kRetryConflictsPastDeadline,    // an authority conflict is retried after 2 s, past the deadline
  kRetryStaleInstanceRoute,       // framework 0.26's recoverStaleInstanceRoute (§7.1)
  kFactoryBeforeVerify,           // the creation target runs the factory before its checks (§7)
  kCapacityLimitOffByOne,         // a secure's bound is the node's limit + 1 (§3.3)
  kIndeterminateTakenAsApplied,   // an authority write without a reply is taken as applied, unread (§10)
  kDescriptorTakeoverIgnoresLease,  // a descriptor row is taken over while its publisher's lease is valid (§4)
  kNeverCancelAbandoned,          // an abandoned creation record is never cancelled (§7)
  kIgnoreInMesh,                  // a creation places in the node's own Mesh, whatever InMesh names (§7)
  kRecoverySkipsFirstMessage,     // a restored Instance Spot accepts messages without its first (§7.1)
  kDataLostWithoutReread,         // a restore's first Missing read of the stored request is DataLost (§10)
  kCacheOutlivesOwnerAdmission,   // a cached location is kept for RouteCacheMaxAge, past its owner's admission (§7.3)
  kResendMessageOnNoReply,        // a regular message with no reply is sent again: it may run twice (§7.3)
  kDropQueueOnDeactivate,         // a removed instance drops its queued messages unanswered (§7.1)
  kCasBeforeCutover,              // the relocation target CASes right after relay-ready, before cutover or 1,000 ms (§8)
  kSavedWorkAfterTemporary,       // the relocation target queues the saved work after the temporary work (§9.2)
  kSourceReopensUnfenced,         // a relocation source reopens without fencing the target's CAS (§9.4, §10)
  kMovedTimersDropped,            // the relocation target restores the queue but not the moved timers (§1.3)
};
inline constexpr std::size_t kPlantedBugCount = 21;

// True when this build compiles the planted branches (the CMake option SPOTCHECK_PLANTED_BUGS).
inline constexpr bool kPlantedBugsCompiled = SPOTCHECK_PLANTED_BUGS != 0;

// A set of planted bugs, held by the protocol's configs (empty in production).
class PlantedBugs {
 public:
  constexpr PlantedBugs() = default;
  constexpr PlantedBugs(std::initializer_list<PlantedBug> bugs) {
    for (PlantedBug bug : bugs) {
      insert(bug);
    }
  }
  constexpr bool contains(PlantedBug bug) const { return (_bits & bit(bug)) != 0; }
  constexpr void insert(PlantedBug bug) { _bits |= bit(bug); }
  constexpr void erase(PlantedBug bug) { _bits &= ~bit(bug); }
  constexpr bool empty() const { return _bits == 0; }
  friend constexpr bool operator==(const PlantedBugs&, const PlantedBugs&) = default;

 private:
  static constexpr std::uint32_t bit(PlantedBug bug) {
    return std::uint32_t{1} << static_cast<std::uint32_t>(bug);
  }
  static_assert(kPlantedBugCount <= 32);
  std::uint32_t _bits = 0;
};

#if SPOTCHECK_PLANTED_BUGS
// What SPOTCHECK_PLANTED calls. Never inlined, on purpose: every object with a planted branch then
// holds this (weak) symbol, which is how scripts/check-no-planted-bugs sees that a build without
// SPOTCHECK_PLANTED_BUGS has none. The call costs nanoseconds next to a store request.
[[gnu::noinline]] inline bool is_planted(const PlantedBugs& bugs, PlantedBug bug) { return bugs.contains(bug); }
#endif

}  // namespace spotcheck::planted

#if SPOTCHECK_PLANTED_BUGS
#define SPOTCHECK_PLANTED(bugs, bug) (::spotcheck::planted::is_planted((bugs), ::spotcheck::planted::PlantedBug::bug))
#else
#define SPOTCHECK_PLANTED(bugs, bug) false
#endif
