import type { Api } from './client.ts';

/** What a scenario's action buttons do, each one API call. */
export type ScenarioAction = 'run' | 'cancel' | 'reset' | 'delete';

/** Sends one action on a scenario (the card and the scenario page share it). */
export async function sendScenarioAction(api: Api, sid: string, id: string, action: ScenarioAction): Promise<void> {
  if (action === 'run') await api.runScenario(sid, id);
  else if (action === 'cancel') await api.cancelScenario(sid, id);
  else if (action === 'reset') await api.resetScenario(sid, id);
  else await api.deleteScenario(sid, id);
}
