/**
 * The actions the server records (docs/api/audit.md), offered as the Activity filter's suggestions. The
 * filter takes any text: an action added to the server later is still found by typing it.
 */
export const KNOWN_ACTIONS = [
  'session.create',
  'session.copy',
  'session.rename',
  'session.delete',
  'dataset.upload',
  'dataset.ingest',
  'dataset.load-sample',
  'dataset.derive',
  'dataset.delete',
  'scenario.create',
  'scenario.run',
  'scenario.cancel',
  'scenario.reset',
  'scenario.delete',
  'scenario.batch-run',
  'scenario.batch-cancel',
  'scenario.batch-reset',
  'scenario.batch-delete',
  'scenario.rebase',
  'experiment.create',
  'experiment.run',
  'experiment.cancel',
  'experiment.reset',
  'experiment.delete',
  'plan.publish',
  'plan.withdraw',
  'plan.replan',
  'report.create',
  'gate.create',
  'gate.delete',
  'schedule.create',
  'schedule.update',
  'schedule.delete',
  'schedule.run',
  'webhook.create',
  'webhook.delete',
] as const;

/** "2xx" outcomes read as done; anything else as refused or failed, with its status. */
export const outcomeOf = (status: number): 'done' | 'refused' | 'failed' => (status < 300 ? 'done' : status < 500 ? 'refused' : 'failed');
