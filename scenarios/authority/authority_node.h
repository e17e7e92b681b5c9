// One Location runtime host process in the simulated world: the real impl/location code
// (owner lease, descriptor publishing, authority operations, placement) driven by a workload
// that claims, uses, takes over and deletes objects of a small shared pool, and sends regular
// messages to the ones other host runs own (the object runtime, §7.3), so host runs contend for
// the same authority rows while faults strike.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "impl/location/config/location_config.h"
#include "impl/platform/platform.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::scenarios::authority {

struct AuthorityWorkload {
  std::string mesh_name = "sim";
  std::uint32_t object_count = 6;   // ids "player:0" .. in the shared pool
  std::uint32_t actors_limit = 0;   // per-node capacity limit (0: unlimited)
  platform::TimeUs think_min_us = platform::millis(50);
  platform::TimeUs think_max_us = platform::millis(800);
  double delete_probability = 0.05;  // an owner deletes the object instead of using it
  double abort_probability = 0.2;    // a reserved object is aborted instead of committed
  // The workload issues requests only before this time (the scenario's end of traffic).
  platform::TimeUs traffic_stop_us = platform::seconds(60);
  // Deadline of one workload request.
  platform::TimeUs request_deadline_us = platform::seconds(10);
  // Per workload step, before traffic stops: the host run shuts down gracefully (spec §11: the
  // owner sweep reclaims its authority rows, its descriptor is left to its lease) and the node
  // comes back as a new host run. 0: never (and no draw is made).
  double shutdown_probability = 0.0;
  // Per host run: it starts with an owner-lease timing at the §5 boundary instead of the
  // scenario's (renew timeout set so renew interval + renew timeout is TTL - fencing margin
  // minus 1 ms, exactly equal, or plus 1 ms; one of the three at random). The two that break §5
  // must be refused at startup; the node comes back as a new host run. 0: never (no draw).
  double boundary_timing_probability = 0.0;
  // Per workload step, once published: the host changes its descriptor (a new placement weight)
  // with update() — the next Revision (§4) — or republishes it unchanged, a same-Revision RENEW
  // the store must leave as it is. 0: never (and no draw is made).
  double descriptor_update_probability = 0.0;
  double descriptor_renew_probability = 0.0;
  // Per request on an object another host run owns (its lease not expired): send it a regular
  // message by the object's ID instead (§7.3: the location cache or a fresh read, command 52 to
  // the owner's node, the owner runs it as one turn under its own admission, §5). This is the
  // node-to-node traffic the node-link faults strike. Every host run hosts the objects it made
  // Active (Commit, NewOwner) in the object runtime and removes them through the Closing hold.
  // 0: never (and no draw is made).
  double message_probability = 0.0;
  // Per such message: a second one to the same object leaves at the same time from another
  // stream of this host run (a second client task), so two lookups of one object run at once and
  // their reads may straddle a change of the row (a Preserve between them is enough): the
  // location cache must keep the newer (§7.3). 0: never (and no draw is made).
  double concurrent_message_probability = 0.0;
  // Per request on an object this host run owns (§8, host maintenance): move it to another live
  // host run of the Mesh instead of using it, while the others keep sending to it. 0: never (no draw).
  double relocate_probability = 0.0;
  // Per message to an object another host run owns: a burst of Sends (no reply, §9.3) on the
  // node's own stream instead, so the object's FIFO order across a move is what keeps their order.
  // 0: never (no draw).
  double post_probability = 0.0;
  std::uint32_t post_burst_max = 4;                    // Sends in one burst: 2 .. this (at least 2)
  platform::TimeUs post_gap_max_us = 0;                // between two Sends of a burst: 0 .. this
  platform::TimeUs restore_max_us = 0;                 // a moved Player's restore on its target: 0 .. this
  // Per message turn: the handler starts a timer callback 100 ms .. timer_delay_max_us later (a
  // relocation moves the timers not yet run, §1.3). 0: never (no draw).
  double timer_probability = 0.0;
  platform::TimeUs timer_delay_max_us = platform::seconds(2);
  // Per host run: it registers Player with DisableRelocation (its objects are never moved from it
  // nor to it: a move is rejected before Capture), or else with RecreateOnRelocation (moved without
  // application state) instead of PreserveStateWith (§2). 0: never (no draw).
  double disable_relocation_probability = 0.0;
  double recreate_probability = 0.0;
  platform::TimeUs message_timeout_us = platform::millis(800);  // a message's wait for its reply
  platform::TimeUs handler_max_us = platform::millis(20);        // a message turn's handler runs up to this
};

struct AuthorityNodeEnv {
  const spotcheck::location::LocationConfig* config = nullptr;
  const AuthorityWorkload* workload = nullptr;
  std::string routing_id_hex;
  // Blocking SPI client of this host run (crosses the simulated link to the store).
  std::function<std::unique_ptr<store::LocationStore>()> make_store;
  // Asks the world to start this process again later as a new host run (after the host run gave
  // up for good, or shut down): the running one is killed then (its fibers unwound), unless it
  // already ended.
  std::function<void()> request_restart;
};

// The process main: runs until the process is killed. A host run whose owner lease is lost for
// good, or that shut down, asks for a restart (request_restart) and parks until it comes; one
// that cannot register returns.
void run_authority_node(platform::Platform& platform, const AuthorityNodeEnv& env);

}  // namespace spotcheck::scenarios::authority
