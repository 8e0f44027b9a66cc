import { useSearch } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { STATUSES, type Status } from '../api/types.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { useSid } from '../session.ts';
import { usePageTitle } from '../page-title.ts';
import { bestByKpi } from '../scenarios/best-values.ts';
import { branchesUnderParents, parentOf } from '../scenarios/branch-tree.ts';
import { useScenarioList } from '../scenarios/scenario-list.ts';
import { useCopyPrefill } from './copy-prefill.ts';
import { CreateScenarioForm } from './CreateScenarioForm.tsx';
import { newestFirst } from './card-facts.ts';
import { ScenarioBatchBar } from './ScenarioBatchBar.tsx';
import { ScenarioCard } from './ScenarioCard.tsx';
import { usePlanScenarioId } from '../decisions/use-plan.ts';
import { useSeedParameters } from '../scenarios/seed-parameter.ts';

/**
 * `?dataset=` preselects the create form's dataset (the home page's button); `?tag=` fills the tag filter;
 * `?copy=<id>` opens the create form filled with that scenario's parameters.
 */
export interface ScenariosSearch {
  dataset?: string;
  tag?: string;
  copy?: string;
}
export const scenariosSearch = (search: Record<string, unknown>): ScenariosSearch => ({
  dataset: typeof search.dataset === 'string' ? search.dataset : undefined,
  tag: typeof search.tag === 'string' ? search.tag : undefined,
  copy: typeof search.copy === 'string' ? search.copy : undefined,
});

/** Scenarios: the create form and every scenario with live status, progress and actions. */
export function ScenariosPage() {
  usePageTitle('Scenarios');
  const sid = useSid();
  const [filter, setFilter] = useState<Status | ''>('');
  const search: ScenariosSearch = useSearch({ strict: false });
  const [query, setQuery] = useState(search.tag ?? '');
  const copying = useCopyPrefill(sid, search.copy);
  const list = useScenarioList(sid);
  const planId = usePlanScenarioId(sid);
  const seedParameterOf = useSeedParameters(sid);
  const shown = useMemo(
    () => (list.data ?? []).filter((s) => (filter === '' || s.status === filter) && s.tag.toLowerCase().includes(query.toLowerCase())).sort(newestFirst),
    [list.data, filter, query],
  );
  const best = useMemo(() => bestByKpi(list.data ?? []), [list.data]);
  // Branches under their parent (a switch, shown once the session has a branch): the tree of variants.
  const [grouped, setGrouped] = useState(false);
  const hasBranches = useMemo(() => (list.data ?? []).some((s) => parentOf(s) !== null), [list.data]);
  const placed = useMemo(() => (grouped && hasBranches ? branchesUnderParents(shown) : shown.map((scenario) => ({ scenario, depth: 0 }))), [grouped, hasBranches, shown]);
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  // Only what is shown is acted on: a ticked card hidden by the filter (or deleted meanwhile) is left out.
  const tickedShown = useMemo(() => new Set(shown.filter((s) => ticked.has(s.id)).map((s) => s.id)), [shown, ticked]);
  const tick = (id: string, on: boolean) => setTicked((set) => (on ? new Set(set).add(id) : new Set([...set].filter((x) => x !== id))));

  return (
    <>
      <h1>Scenarios</h1>
      <ErrorNote error={copying.error} />
      {copying.loading ? <p role="status">Loading the scenario to copy…</p> : <CreateScenarioForm key={copying.prefill?.from ?? 'new'} sid={sid} prefill={copying.prefill} initialDataset={search.dataset} />}
      <section aria-labelledby="list-title">
        <div className="row" style={{ marginBottom: '0.5rem' }}>
          <h2 id="list-title" style={{ margin: 0 }}>
            All scenarios <span className="muted small">({list.data?.length ?? 0})</span>
          </h2>
          <span className="spacer" />
          <label htmlFor="status-filter" className="small">
            Status
          </label>
          <select id="status-filter" value={filter} onChange={(e) => setFilter(e.target.value as Status | '')}>
            <option value="">all</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
          <label htmlFor="tag-filter" className="small">
            Tag
          </label>
          <input id="tag-filter" type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
          {hasBranches && (
            <label className="check small">
              <input type="checkbox" role="switch" checked={grouped} onChange={(e) => setGrouped(e.target.checked)} />
              Branches under their parent
            </label>
          )}
        </div>
        <ErrorNote error={list.error} />
        {list.data?.length === 0 && <p className="muted">No scenarios yet.</p>}
        {list.data !== undefined && list.data.length > 0 && shown.length === 0 && (
          <p className="alert" role="status" data-testid="no-match">
            No scenario {describeFilter(filter, query)}.{' '}
            <button
              type="button"
              className="link"
              onClick={() => {
                setFilter('');
                setQuery('');
              }}
            >
              Clear the filter
            </button>{' '}
            to see all {list.data.length}.
          </p>
        )}
        {/* Keyed by the filter: a choice of "all matching" made for one filter never carries over to another. */}
        {shown.length > 0 && (
          <ScenarioBatchBar key={`${filter}|${query}`} sid={sid} selected={tickedShown} matching={shown.length} status={filter} query={query} onClear={() => setTicked(new Set())} />
        )}
        <div className={grouped && hasBranches ? 'branch-list' : 'grid'} data-testid="scenario-list">
          {placed.map(({ scenario: s, depth }) => (
            <div key={s.id} className="branch-place" data-depth={depth} style={depth > 0 ? { marginLeft: `calc(${Math.min(depth, 4)} * var(--branch-indent))` } : undefined}>
              <ScenarioCard
                sid={sid}
                scenario={s}
                bestIn={[...best].filter(([, id]) => id === s.id).map(([name]) => name)}
                selected={ticked.has(s.id)}
                onSelect={(on) => tick(s.id, on)}
                isPlan={s.id === planId}
                seedParameter={seedParameterOf(s.algorithm.name)}
              />
            </div>
          ))}
        </div>
      </section>
    </>
  );
}

/** The filter in words: `has status FAILED and a tag containing “sweep”`. */
function describeFilter(status: Status | '', query: string): string {
  const parts = [status ? `has status ${status}` : '', query ? `has a tag containing “${query}”` : ''].filter(Boolean);
  return parts.join(' and ');
}
