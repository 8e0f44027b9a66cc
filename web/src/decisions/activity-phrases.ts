import type { AuditEntry, Plan } from '../api/decisions.ts';
import { humanise } from '../params/parameter-labels.ts';
import { outcomeOf } from './audit-actions.ts';

/**
 * The Activity page's phrasebook: each audit entry as a sentence a planner reads ("Published d-greedy
 * as the plan, replacing d-asis: “shortest walk”"), not as the trail records it (`plan.publish`,
 * `done 201`, ids). The trail holds ids only (its entries are hashed as written and never change), so
 * names come from what the session holds now: its own name, its scenarios, experiments, datasets,
 * reports and gates, and the plan's history for a publication's reason. Something since deleted is said so,
 * with the start of its id.
 */

/** Something an entry touched: named when the session still knows it, else by the start of its id. */
export interface Named {
  readonly kind: 'scenario' | 'experiment' | 'report' | 'gate' | 'schedule' | 'dataset' | 'session' | 'other';
  readonly id: string;
  /** Its name now (a scenario's tag, an experiment's or gate's name, a report's title), or null when not known. */
  readonly name: string | null;
  /** The session's list of its kind was read and it is not there: it was deleted since. */
  readonly gone?: boolean;
}

/** One piece of a sentence: text, or a thing to name (the page links a scenario, experiment, report or gate). */
export type Piece = string | Named;

/** What the session knows now, to name the ids an entry holds (a list not read yet, or refused, is undefined). */
export interface ActivityNames {
  readonly session?: string;
  readonly scenarios?: ReadonlyMap<string, string>;
  readonly experiments?: ReadonlyMap<string, string>;
  readonly reports?: ReadonlyMap<string, string>;
  readonly gates?: ReadonlyMap<string, string>;
  readonly schedules?: ReadonlyMap<string, string>;
  /** The current plan and the earlier ones (`GET .../plan`), for a publication's or withdrawal's reason. */
  readonly plans: readonly Plan[];
}

export interface ActivityPhrase {
  /** The sentence, first word capitalised: "Ran d-greedy", or "Tried to delete d-greedy" when refused or failed. */
  readonly pieces: readonly Piece[];
  /** A reason given with the action (a plan's note), shown quoted after the sentence. */
  readonly reason: string | null;
  /** The outcome in words: "Done", "Refused: …", "Failed: …". */
  readonly outcome: string;
}

/** How an action reads: the verb done and tried, and the rest of the sentence. */
interface Wording {
  readonly done: string;
  readonly tried: string;
  readonly rest: (entry: AuditEntry, names: ActivityNames) => readonly Piece[];
  readonly reason?: (entry: AuditEntry, names: ActivityNames) => string | null;
}

const target = (entry: AuditEntry, kind: string): string | undefined => entry.targets[kind];

function named(kind: Named['kind'], id: string | undefined, names: ActivityNames): Named | string {
  if (id === undefined) return kind === 'scenario' ? 'a scenario' : `a ${kind}`;
  const from = kind === 'scenario' ? names.scenarios : kind === 'experiment' ? names.experiments : kind === 'report' ? names.reports : kind === 'gate' ? names.gates : kind === 'schedule' ? names.schedules : undefined;
  // A dataset is known by its key, which is its name; the session by its display name.
  if (kind === 'dataset' || kind === 'session') return { kind, id, name: kind === 'dataset' ? id : (names.session ?? id) };
  const name = from?.get(id) ?? null;
  return { kind, id, name, gone: from !== undefined && name === null };
}

const scenario = (e: AuditEntry, n: ActivityNames) => named('scenario', target(e, 'scenario'), n);
const experiment = (e: AuditEntry, n: ActivityNames) => named('experiment', target(e, 'experiment'), n);
const dataset = (e: AuditEntry, n: ActivityNames) => named('dataset', target(e, 'dataset'), n);
const gate = (e: AuditEntry, n: ActivityNames) => named('gate', target(e, 'gate'), n);
/** "the gate <name>", or "a gate" for a refused creation (which names none). */
const theGate = (e: AuditEntry, n: ActivityNames): Piece[] => (target(e, 'gate') === undefined ? ['a gate'] : ['the gate ', gate(e, n)]);
/** "the schedule <name>", or "a schedule" for a refused creation (which names none). */
const theSchedule = (e: AuditEntry, n: ActivityNames): Piece[] =>
  target(e, 'schedule') === undefined ? ['a schedule'] : ['the schedule ', named('schedule', target(e, 'schedule'), n)];

/** Times within this of each other are one write: the plan's own stamp and its audit entry's. */
const SAME_WRITE_MS = 60_000;

/** The plan whose `at` (picked from it) lies nearest the entry's time, among those `fits` accepts. */
function nearestPlan(entry: AuditEntry, plans: readonly Plan[], at: (p: Plan) => string | undefined, fits: (p: Plan) => boolean): Plan | undefined {
  const when = Date.parse(entry.at);
  let best: Plan | undefined;
  let gap = SAME_WRITE_MS;
  for (const p of plans) {
    const stamp = at(p);
    if (stamp === undefined || !fits(p)) continue;
    const d = Math.abs(Date.parse(stamp) - when);
    if (d <= gap) {
      best = p;
      gap = d;
    }
  }
  return best;
}

const publishedBy = (e: AuditEntry, n: ActivityNames) => nearestPlan(e, n.plans, (p) => p.published_at, (p) => p.scenario_id === target(e, 'scenario'));
const withdrawnBy = (e: AuditEntry, n: ActivityNames) => nearestPlan(e, n.plans, (p) => p.ended?.at, (p) => p.ended?.how === 'withdrawn');

const WORDINGS: Readonly<Record<string, Wording>> = {
  'session.create': { done: 'created', tried: 'create', rest: (e, n) => ['the session ', named('session', target(e, 'session'), n)] },
  'session.copy': { done: 'copied', tried: 'copy', rest: (e) => ['this session', target(e, 'new_session') ? ' into a new session' : ''] },
  'session.rename': { done: 'renamed', tried: 'rename', rest: (e, n) => ['the session', e.status < 300 && n.session ? ` (now “${n.session}”)` : ''] },
  'session.delete': { done: 'deleted', tried: 'delete', rest: () => ['the session'] },
  'dataset.upload': { done: 'uploaded', tried: 'upload', rest: (e, n) => ['the data ', dataset(e, n)] },
  'dataset.load-sample': { done: 'loaded', tried: 'load', rest: (e, n) => ['the sample data into ', dataset(e, n)] },
  'dataset.ingest': { done: 'stored', tried: 'store', rest: (e, n) => ['the data ', dataset(e, n), ' from JSON'] },
  'dataset.derive': {
    done: 'derived',
    tried: 'derive',
    rest: (e, n) => ['the data ', named('dataset', target(e, 'new_dataset'), n), ' from ', dataset(e, n)],
  },
  'dataset.delete': { done: 'deleted', tried: 'delete', rest: (e, n) => ['the data ', dataset(e, n)] },
  'scenario.create': { done: 'created', tried: 'create', rest: (e, n) => ['the scenario ', scenario(e, n)] },
  'scenario.branch': {
    done: 'made',
    tried: 'make',
    rest: (e, n) => ['the what-if ', scenario(e, n), ' from ', named('scenario', target(e, 'base'), n)],
  },
  'scenario.run': { done: 'ran', tried: 'run', rest: (e, n) => [scenario(e, n)] },
  'scenario.cancel': { done: 'cancelled', tried: 'cancel', rest: (e, n) => ['the run of ', scenario(e, n)] },
  'scenario.reset': { done: 'reset', tried: 'reset', rest: (e, n) => [scenario(e, n), e.status < 300 ? ', clearing its result and KPIs' : ''] },
  'scenario.delete': { done: 'deleted', tried: 'delete', rest: (e, n) => ['the scenario ', scenario(e, n)] },
  'scenario.batch-run': { done: 'ran', tried: 'run', rest: () => ['several scenarios at once'] },
  'scenario.batch-cancel': { done: 'cancelled', tried: 'cancel', rest: () => ['the runs of several scenarios at once'] },
  'scenario.batch-reset': { done: 'reset', tried: 'reset', rest: () => ['several scenarios at once'] },
  'scenario.batch-delete': { done: 'deleted', tried: 'delete', rest: () => ['several scenarios at once'] },
  'experiment.create': { done: 'created', tried: 'create', rest: (e, n) => ['the experiment ', experiment(e, n)] },
  'experiment.run': { done: 'ran', tried: 'run', rest: (e, n) => ['the scenarios of the experiment ', experiment(e, n)] },
  'experiment.cancel': { done: 'cancelled', tried: 'cancel', rest: (e, n) => ['the runs of the experiment ', experiment(e, n)] },
  'experiment.reset': { done: 'reset', tried: 'reset', rest: (e, n) => ['the scenarios of the experiment ', experiment(e, n)] },
  'experiment.delete': { done: 'deleted', tried: 'delete', rest: (e, n) => ['the experiment ', experiment(e, n), ' and its scenarios'] },
  'plan.publish': {
    done: 'published',
    tried: 'publish',
    rest: (e, n) => {
      const published = e.status < 300 ? publishedBy(e, n) : undefined;
      // The plan it replaced ended as superseded at the moment this one was published.
      const replaced = published && nearestPlan(e, n.plans, (p) => p.ended?.at, (p) => p.ended?.how === 'superseded' && p.id !== published.id);
      const scenarioNamed = scenario(e, n);
      // A plan's scenario deleted since (after its withdrawal) is still named by the tag the plan kept.
      const shown = typeof scenarioNamed !== 'string' && scenarioNamed.name === null && published ? { ...scenarioNamed, name: published.tag, gone: false } : scenarioNamed;
      return [shown, ' as the plan', replaced ? `, replacing ${replaced.tag}` : ''];
    },
    reason: (e, n) => (e.status < 300 ? (publishedBy(e, n)?.note ?? null) : null),
  },
  'plan.withdraw': {
    done: 'withdrew',
    tried: 'withdraw',
    rest: (e, n) => {
      const withdrawn = e.status < 300 ? withdrawnBy(e, n) : undefined;
      return withdrawn ? [{ kind: 'scenario', id: withdrawn.scenario_id, name: n.scenarios?.get(withdrawn.scenario_id) ?? withdrawn.tag }, ' as the plan'] : ['the plan'];
    },
    reason: (e, n) => (e.status < 300 ? (withdrawnBy(e, n)?.ended?.note ?? null) : null),
  },
  // Planning cycles (docs/api/cycles.md): a rebase names the scenario rebased as `rebased`, its successor as
  // `scenario` (with its tree, the last other successor as `new_scenario`); a re-plan names the plan and its successor.
  'scenario.rebase': {
    done: 'rebased',
    tried: 'rebase',
    rest: (e, n) => {
      const rebased = named('scenario', target(e, 'rebased'), n);
      if (e.status >= 300 || target(e, 'scenario') === undefined) return [rebased, ' onto new data'];
      return [rebased, target(e, 'new_scenario') ? ' and its what-ifs' : '', ' onto the new data as ', scenario(e, n)];
    },
  },
  'plan.replan': {
    done: 're-planned',
    tried: 're-plan',
    rest: (e, n) => {
      const plan = n.plans.find((p) => p.id === target(e, 'plan'));
      const planned: Piece = plan ? { kind: 'scenario', id: plan.scenario_id, name: n.scenarios?.get(plan.scenario_id) ?? plan.tag } : 'the plan';
      if (e.status >= 300 || target(e, 'scenario') === undefined) return [planned, ' on the newest data'];
      return [planned, ' on the newest data as ', scenario(e, n)];
    },
  },
  'report.create': {
    done: 'saved',
    tried: 'save',
    // A gate saved as a report names its gate; a refused one (still running) has no report to name.
    rest: (e, n) =>
      target(e, 'gate') === undefined
        ? ['the report ', named('report', target(e, 'report'), n)]
        : target(e, 'report') === undefined
          ? [...theGate(e, n), ' as a report']
          : ['the report ', named('report', target(e, 'report'), n), ' of the gate ', gate(e, n)],
  },
  'gate.create': { done: 'created', tried: 'create', rest: (e, n) => [...theGate(e, n), e.status < 300 ? ', queueing its paired runs' : ''] },
  'gate.delete': { done: 'deleted', tried: 'delete', rest: (e, n) => [...theGate(e, n), ' and its runs'] },
  'schedule.create': { done: 'created', tried: 'create', rest: (e, n) => theSchedule(e, n) },
  // The trail keeps no body: a pause, a resume and any other change read alike.
  'schedule.update': { done: 'changed', tried: 'change', rest: (e, n) => [...theSchedule(e, n), e.status < 300 ? ' (paused, resumed or edited)' : ''] },
  'schedule.delete': { done: 'deleted', tried: 'delete', rest: (e, n) => [...theSchedule(e, n), ' and its run history'] },
  'schedule.run': { done: 'ran', tried: 'run', rest: (e, n) => [...theSchedule(e, n), ' now'] },
  'webhook.create': { done: 'added', tried: 'add', rest: () => ['a webhook'] },
  'webhook.delete': { done: 'removed', tried: 'remove', rest: () => ['a webhook'] },
  'token.create': { done: 'created', tried: 'create', rest: () => ['an API token'] },
  'token.revoke': { done: 'revoked', tried: 'revoke', rest: () => ['an API token'] },
  'audit.prune': { done: 'pruned', tried: 'prune', rest: () => ['old activity'] },
};

/** The statuses a refusal is commonly answered with, in words. */
const REFUSALS: Readonly<Record<number, string>> = {
  400: 'the request was not valid',
  401: 'no valid token',
  403: 'not allowed',
  404: 'not found',
  409: 'it conflicted with the current state',
  413: 'too large',
  415: 'a format the server does not take',
  422: 'the input was not valid',
  429: 'too many requests',
};

/** The outcome in words, the status kept at the end for whoever looks it up. */
export function outcomeText(status: number): string {
  const outcome = outcomeOf(status);
  if (outcome === 'done') return 'Done';
  if (outcome === 'failed') return `Failed on the server (${status})`;
  return `Refused: ${REFUSALS[status] ?? 'the server did not accept it'} (${status})`;
}

/** An action the phrasebook does not know (one added to the server later): its words, and every target it names. */
function fallback(entry: AuditEntry, names: ActivityNames): Wording {
  const [subject = '', verb = entry.action] = entry.action.includes('.') ? entry.action.split('.', 2) : ['', entry.action];
  const word = humanise(verb).toLowerCase();
  return {
    done: `did “${word}”`,
    tried: `do “${word}”`,
    rest: () => {
      const touched = Object.entries(entry.targets).filter(([kind]) => kind !== 'session');
      const pieces: Piece[] = [];
      touched.forEach(([kind, id], i) => {
        pieces.push(i === 0 ? ' on ' : ', ');
        const known = kind === 'scenario' || kind === 'experiment' || kind === 'report' || kind === 'gate' || kind === 'schedule' || kind === 'dataset' ? kind : 'other';
        pieces.push(`${humanise(kind).toLowerCase()} `, known === 'other' ? { kind: 'other', id, name: null } : named(known, id, names));
      });
      if (touched.length === 0 && subject) pieces.push(` (${humanise(subject).toLowerCase()})`);
      return pieces;
    },
  };
}

/** The entry as a sentence, its reason and its outcome. */
export function phraseOf(entry: AuditEntry, names: ActivityNames): ActivityPhrase {
  const wording = WORDINGS[entry.action] ?? fallback(entry, names);
  const done = entry.status < 300;
  const lead = done ? wording.done : `tried to ${wording.tried}`;
  const rest = wording.rest(entry, names).filter((p) => p !== '');
  const joint = typeof rest[0] === 'string' && rest[0].startsWith(' ') ? '' : ' ';
  return {
    pieces: [lead.charAt(0).toUpperCase() + lead.slice(1) + (rest.length > 0 ? joint : ''), ...rest],
    reason: wording.reason?.(entry, names) ?? null,
    outcome: outcomeText(entry.status),
  };
}

/** The sentence as plain text (a thing by its name, or "a deleted <kind> (<id start>)"): the filter's suggestions and tests. */
export function phraseText(phrase: ActivityPhrase): string {
  return phrase.pieces.map((p) => (typeof p === 'string' ? p : nameOf(p))).join('');
}

/** How a thing reads: its name; when it is gone, that it was deleted; else (its list not read) the start of its id. */
export function nameOf(thing: Named): string {
  if (thing.name !== null) return thing.name;
  const short = thing.id.length > 12 ? thing.id.slice(0, 8) : thing.id;
  return thing.gone ? `a deleted ${thing.kind} (${short})` : short;
}
