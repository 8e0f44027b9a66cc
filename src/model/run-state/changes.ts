import { fromStates, targetOf, type ScenarioEvent, type ScenarioStatus } from './state-machine.js';

/** A state change decided by the scenario state machine: the allowed from-states and the target. */
export interface StatusChange {
  readonly from: readonly ScenarioStatus[];
  readonly to: ScenarioStatus;
}

/** The conditional UPDATE of an event: `set status = to where status in (from)`, from the state machine. */
export function changeFor(event: ScenarioEvent): StatusChange {
  return { from: fromStates(event), to: targetOf(event) };
}
