// The first and the last step of every engine's run. The last goes from its flow records (start, end, why unfinished) to the
// operations' iteration spans, the phases' ends, the makespan and the notes on flows that never
// completed. The same for every engine, so that a flow and a packet run of one scenario are read
// the same way.
//
// Makespan: the last completion; when some flow never completed, the run is unbounded and the
// makespan is the last instant at which anything happened (a start, a completion, `last_event`).
#pragma once

#include "core/units.h"
#include "sim/simulation_result.h"
#include "workload/workload.h"

namespace ct {

// Why stalled flows stopped, as the note says it: the default, or an engine's own (a deadlock).
inline constexpr const char* kStalledByFaults = "every path they had failed and routing found no other";

// The first step of every engine's run: the workload's operations (iteration spans unset), phases
// (end unset), workers and notes, as the result carries them.
void open_result(SimulationResult& result, const Workload& workload);

// PRECONDITION: every record's start, end and unfinished are final; result.phases and
// result.operations are as the workload made them (iteration spans unset).
void close_result(SimulationResult& result, TimePs last_event, const char* stalled_because = kStalledByFaults);

}  // namespace ct
