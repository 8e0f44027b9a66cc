import type { StatusChange } from '../scenarios-repository.js';
import { fromStates, targetOf, type ScenarioEvent } from './state-machine.js';

/** The conditional UPDATE of an event: `set status = to where status in (from)`, from the state machine. */
export function changeFor(event: ScenarioEvent): StatusChange {
  return { from: fromStates(event), to: targetOf(event) };
}
