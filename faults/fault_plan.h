// Which faults a run injects, and how hard. Drawn from the seed in swarm mode.
//
// A run has a safety phase (faults on) followed by a liveness phase (faults stop at
// `faults_stop_us`; a healed world must let every request finish before its deadline).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "impl/platform/random.h"
#include "impl/platform/time.h"

namespace spotcheck::faults {

using platform::TimeUs;

enum class FaultKind {
  kStoreRequestLost,    // a store request never reaches the store (nothing applied)
  kStoreReplyLost,      // the store applies a request but its reply is lost (indeterminate)
  kStoreReplyDelayed,   // the reply arrives after the caller's deadline
  kStoreOutage,         // the store refuses every request for a window
  kNodeKill,            // a node process dies (fibers unwound) and restarts as a new host run
  kNodePause,           // a node freezes while time moves on, sometimes longer than its owner lease
  kNetworkLoss,         // messages on node-store links are dropped
  kNetworkPartition,    // a node cut off from the store, symmetric or one-way, for a window
  kClockDrift,          // node clocks run fast or slow within bounds
  kNodeMessageLoss,     // messages between nodes (node-to-node commands) are dropped
  kNodeMessageDelay,    // messages between nodes take up to a drawn latency (a long tail)
  kNodePartition,       // two nodes cannot reach each other, symmetric or one-way, for a window
  kStoreDeleteSlow,     // the store holds a write that deletes a record before it applies it
  kStoreLateApply,      // the store applies a write after its caller gave up (§10)
  kStoreStall,          // the store stalls for a window: requests queue and apply in order after it
  kLinkTail,            // every link's latency has a long tail (node-store and node-node)
  kNodeLinkStall,       // a link between two nodes holds its messages for a window, then delivers them
  kStoreRenewLost,      // an owner lease renew write is lost, applied with its reply lost, refused, or
                        // applied late, while every other request (reads included) is served
  kNodePauseOnReply,    // a node freezes as a store reply reaches it, before it acts on it (a GC
                        // pause between a read and the write it plans), at times past its owner lease
  kNodeFreezeDrop,      // a node freezes (a VM paused or migrated) with a store request in flight; the
                        // request, or the reply of the write it applied, is lost with the connection
  kStoreScanExpired,    // the store pages scans small and forgets a scan between pages (ScanExpired)
  kNodeCrashPoint,      // a node dies at a crash point of the protocol (faults/crash_points.h: after
                        // an Instance Spot's payload is stored, after Creating, after Ready) and restarts
  kStorePayloadDamage,  // a stored payload read again turns invisible for a while, is lost or corrupted (§10)
  // Out of contract (faults/out_of_contract.h): never on unless asked for, reported apart.
  kStoreClockJump,      // the store's clock jumps forward (a failover to a replica with another clock)
  kStoreLostWrites,     // the store loses the writes it acknowledged lately (a failover to a lagging replica)
  kNodeClockStep,       // a node's monotonic clock steps back or forward
};

struct FaultKindInfo {
  FaultKind kind;
  const char* name;
  const char* description;
};

// Every fault kind, in a fixed order (used by `spotcheck list` and swarm drawing).
std::span<const FaultKindInfo> all_fault_kinds();
const char* to_string(FaultKind kind);
// The kind `to_string` names `name` (it must name one).
FaultKind fault_kind_named(std::string_view name);
// An out-of-contract kind (faults/out_of_contract.h): never in a standard plan, never drawn by a
// swarm shape; on only when a campaign asks for it.
bool is_out_of_contract(FaultKind kind);

// How swarm mode draws one scenario's fault plan (FaultPlan::swarm): every fault kind is on with
// probability 1/2 — or in every draw when the scenario is about it (`always`) — and its
// intensity is drawn uniformly from the ranges below. The default value is the mixed campaign's
// shape; a scenario aimed at one hazard keeps that hazard on, and hard, in every swarm seed, so
// its swarm campaign stays its own (docs/scenarios.md "Swarm mode").
struct SwarmShape {
  struct Rate {  // a per-request or per-message probability in [lo, hi]
    double lo = 0.0;
    double hi = 0.0;
  };
  struct Window {  // a kind that runs in windows: mean gap, then window length (or down time, max pause)
    TimeUs gap_lo_us = 0;
    TimeUs gap_hi_us = 0;
    TimeUs length_lo_us = 0;
    TimeUs length_hi_us = 0;
  };

  std::vector<FaultKind> always;  // on in every draw (the others: on with probability 1/2)
  Rate store_request_loss{0.001, 0.1};
  Rate store_reply_loss{0.001, 0.1};
  Rate store_reply_delay{0.001, 0.1};
  Window store_outage{platform::seconds(5), platform::seconds(60), platform::millis(100), platform::seconds(10)};
  Window node_kill{platform::seconds(5), platform::seconds(60), platform::millis(100), platform::seconds(20)};
  Window node_pause{platform::seconds(5), platform::seconds(60), platform::millis(100), platform::seconds(40)};
  Rate network_loss{0.001, 0.2};
  Window network_partition{platform::seconds(5), platform::seconds(60), platform::millis(100), platform::seconds(20)};
  std::int64_t clock_drift_lo_ppm = 1;
  std::int64_t clock_drift_hi_ppm = 1000;
  // The kinds between nodes and the slow Delete are drawn only in a shape that lists them in
  // `also` (or `always`), after every other kind: a scenario whose nodes talk to each other opts
  // in, and the draws of every other shape stay as they were.
  std::vector<FaultKind> also;
  Rate node_message_loss{0.01, 0.3};
  TimeUs node_message_delay_lo_us = platform::millis(2);
  TimeUs node_message_delay_hi_us = platform::millis(300);
  Window node_partition{platform::seconds(3), platform::seconds(30), platform::millis(100), platform::seconds(5)};
  TimeUs store_delete_hold_lo_us = platform::millis(10);
  TimeUs store_delete_hold_hi_us = platform::millis(800);
  // Opt-in like the kinds above.
  Rate store_late_apply{0.005, 0.05};
  TimeUs store_late_apply_lo_us = platform::millis(50);  // the longest lateness past the deadline
  TimeUs store_late_apply_hi_us = platform::seconds(3);
  Window store_stall{platform::seconds(5), platform::seconds(40), platform::millis(200), platform::seconds(6)};
  Rate link_tail{0.001, 0.05};
  TimeUs link_tail_lo_us = platform::millis(50);  // the longest tail latency
  TimeUs link_tail_hi_us = platform::seconds(4);
  Window node_link_stall{platform::seconds(3), platform::seconds(30), platform::millis(100), platform::seconds(3)};
  Rate store_renew_loss{0.05, 0.6};
  Rate node_pause_on_reply{0.0005, 0.01};
  TimeUs node_pause_on_reply_lo_us = platform::seconds(5);  // the longest such pause
  TimeUs node_pause_on_reply_hi_us = platform::seconds(30);
  Rate node_freeze_drop{0.001, 0.02};
  TimeUs node_freeze_drop_lo_us = platform::seconds(5);  // the longest such freeze
  TimeUs node_freeze_drop_hi_us = platform::seconds(30);
  Rate store_scan_expiry{0.05, 0.5};
  Rate node_crash_point{0.02, 0.25};
  TimeUs node_crash_point_down_lo_us = platform::millis(200);  // the longest down time after such a crash
  TimeUs node_crash_point_down_hi_us = platform::seconds(5);
  Rate store_payload_damage{0.05, 0.5};

  bool always_on(FaultKind kind) const;
  // Drawn at all: a base kind always; a node-to-node kind or the slow Delete when listed; an
  // out-of-contract kind never (faults/out_of_contract.h draws those).
  bool drawn(FaultKind kind) const;
  // Every range non-empty and positive, probabilities in (0, 1].
  bool valid() const;
};

struct FaultPlan {
  // Per store request probabilities.
  double store_request_loss = 0.0;
  double store_reply_loss = 0.0;
  double store_reply_delay = 0.0;
  // Store outages: mean gap between windows and window length.
  TimeUs store_outage_gap_us = 0;  // 0: no outages
  TimeUs store_outage_length_us = 0;
  // Node kills: mean time between kills of some node; how long a dead node stays down.
  TimeUs node_kill_gap_us = 0;  // 0: no kills
  TimeUs node_down_us = 0;
  // Node pauses: mean gap and the longest pause (may exceed the owner lease TTL).
  TimeUs node_pause_gap_us = 0;  // 0: no pauses
  TimeUs node_pause_max_us = 0;
  // Network between nodes.
  double network_loss = 0.0;
  TimeUs partition_gap_us = 0;  // 0: no partitions
  TimeUs partition_length_us = 0;
  // Clock drift bound, parts per million (each node draws its drift in [-max, +max]).
  std::int64_t clock_drift_max_ppm = 0;
  // Between nodes (node-to-node commands over sim::Network): per message loss, the longest
  // latency (each message's drawn uniformly up to it, FIFO per connection), and partitions of
  // one pair of nodes (mean gap, longest window).
  double node_message_loss = 0.0;
  TimeUs node_message_delay_max_us = 0;  // 0: the network's default latency
  TimeUs node_partition_gap_us = 0;      // 0: no partitions between nodes
  TimeUs node_partition_length_us = 0;
  // The store holds a Location Store write with a Delete up to this long before it applies it.
  TimeUs store_delete_hold_max_us = 0;
  // Per write: held past its caller's deadline, then up to store_late_apply_max_us more.
  double store_late_apply = 0.0;
  TimeUs store_late_apply_max_us = 0;
  // Stalling outages: mean gap and window length (requests queue, then apply in order).
  TimeUs store_stall_gap_us = 0;  // 0: no stalls
  TimeUs store_stall_length_us = 0;
  // Every link: with this probability a message's latency comes from a long tail up to
  // link_tail_max_us (sim::LinkConfig::tail_probability).
  double link_tail = 0.0;
  TimeUs link_tail_max_us = 0;
  // Stalls of one direction between two nodes: mean gap, longest window (held, then delivered).
  TimeUs node_link_stall_gap_us = 0;  // 0: no stalls
  TimeUs node_link_stall_length_us = 0;
  // Per owner lease renew write (a Put of one owner-lease row, nothing else): lost on the way, applied
  // with its reply lost, refused, or applied past its caller's deadline, up to 8 s more (a quarter
  // each), while reads and every other write are served.
  double store_renew_loss = 0.0;
  // Per store reply, as it reaches its node: the node freezes for up to node_pause_on_reply_max_us
  // (uniform from 1 s) before it acts on the reply: a planning read's answer, or a write's outcome,
  // is acted on by a host whose admission deadline may have passed meanwhile (§5).
  double node_pause_on_reply = 0.0;
  TimeUs node_pause_on_reply_max_us = 0;
  // Per store request: its node freezes for up to node_freeze_drop_max_us (uniform from 1 s) and the
  // request is lost, or (half the time) the store applies it and the reply is lost: the caller's
  // wait times out when it resumes, and it resolves the outcome by a re-read, perhaps after its
  // owner lease ended and another node took its rows over (§5, §10).
  double node_freeze_drop = 0.0;
  TimeUs node_freeze_drop_max_us = 0;
  // Scans: while on, every scan is served in pages of 1-3 entries, and a page asked for with a
  // continuation is ScanExpired with this probability (the store forgot the scan: a failover, a
  // scan TTL); the caller must restart from the first page, never use a partial list (§7.4).
  double store_scan_expiry = 0.0;
  // Per crash point a node reaches (faults/crash_points.h): it dies right there — nothing it sends
  // afterwards leaves — and restarts as a new host run after up to node_crash_point_down_max_us.
  double node_crash_point = 0.0;
  TimeUs node_crash_point_down_max_us = 0;
  // Per read of a stored payload after its first (sim::StoreFaults::payload_damage): at most once
  // per payload, it turns invisible for up to 500 ms, is lost, or is corrupted. §10: a reader
  // re-reads an invisible payload; a lost or changed one is DataLost, never guessed at.
  double store_payload_damage = 0.0;
  // Out of contract (faults/out_of_contract.h), each in windows: mean gap, then the largest change.
  // The Location Store's clock jumps forward by up to store_clock_jump_max_us (and stays there).
  TimeUs store_clock_jump_gap_us = 0;  // 0: no jumps
  TimeUs store_clock_jump_max_us = 0;
  // The Location Store fails over to a replica up to store_lost_writes_lag_us behind: the writes it
  // applied in that time are gone.
  TimeUs store_lost_writes_gap_us = 0;  // 0: no lost writes
  TimeUs store_lost_writes_lag_us = 0;
  // A node's local monotonic clock steps back or forward by up to node_clock_step_max_us.
  TimeUs node_clock_step_gap_us = 0;  // 0: no steps
  TimeUs node_clock_step_max_us = 0;
  // When the safety phase ends: no fault starts after this and every fault has healed.
  TimeUs faults_stop_us = 0;

  bool enabled(FaultKind kind) const;
  // This plan with one fault kind switched off (its every field zero).
  FaultPlan without(FaultKind kind) const;
  // One line, e.g. "store-request-lost=0.02 node-kill(gap=20s,down=3s) ...", or "none".
  std::string describe() const;

  static FaultPlan none();
  // Every fault kind on at a moderate level: the default campaign.
  static FaultPlan standard(TimeUs faults_stop_us);
  // Swarm testing: each kind on or off with probability 1/2 (on in every draw if `shape` says
  // so), its intensity drawn from `shape`'s ranges. The draws of one kind never shift another's:
  // every kind's switch and intensity are drawn, in a fixed order, whatever the shape.
  static FaultPlan swarm(platform::Random& random, TimeUs faults_stop_us, const SwarmShape& shape = {});
};

}  // namespace spotcheck::faults
