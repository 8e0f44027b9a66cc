import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';
import { scenarioLineage, type LineageNode, type ParameterChange } from '../api/what-if.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { formatParam } from '../format.ts';
import { humanise } from '../params/parameter-labels.ts';
import { EditSentences } from './EditSentences.tsx';

function useLineage(sid: string, id: string) {
  const api = useApi();
  return useQuery({ queryKey: keys.lineage(sid, id), queryFn: () => scenarioLineage(api, sid, id) });
}

/**
 * The chain from a branch's root down to it ("Branch of: base → +10 % demand → this"), under the
 * scenario's title; nothing for a scenario that is not a branch.
 */
export function ChainLine({ sid, id }: { sid: string; id: string }) {
  const lineage = useLineage(sid, id);
  if (!lineage.data) return null;
  const { ancestors, scenario } = lineage.data;
  if (scenario.parent_deleted) return <p className="small muted chain-line">Branched from a scenario since deleted: a root now.</p>;
  const parent = ancestors[ancestors.length - 1];
  if (!parent) return null;
  return (
    <nav aria-label="Chain from the root" className="chain-line small">
      <span className="muted">Branch of:</span>{' '}
      <ol className="chain" data-testid="chain-steps">
        {[...ancestors, scenario].map((node) => (
          <li key={node.id} aria-current={node.id === scenario.id ? 'page' : undefined} data-status={node.status}>
            {node.id === scenario.id ? (
              <strong>{node.tag}</strong>
            ) : (
              <Link to="/s/$sid/scenarios/$id" params={{ sid, id: node.id }}>
                {node.tag}
              </Link>
            )}
          </li>
        ))}
      </ol>{' '}
      <Link to="/s/$sid/compare" params={{ sid }} search={{ ids: `${parent.id},${scenario.id}`, baseline: parent.id }}>
        Compare with {parent.tag}
      </Link>
    </nav>
  );
}

/**
 * Where a scenario sits among its variants (`GET .../lineage`): what it changed against its parent
 * (parameters and data edits) and the branches made from it, as a tree. Nothing for a scenario that
 * is neither a branch nor branched from.
 */
export function LineageSection({ sid, id }: { sid: string; id: string }) {
  const lineage = useLineage(sid, id);
  if (lineage.error) return <ErrorNote error={lineage.error} />;
  if (!lineage.data) return null;
  const { ancestors, scenario, descendants } = lineage.data;
  const parent = ancestors[ancestors.length - 1];
  if (!parent && descendants.length === 0) return null;
  return (
    <section className="card" aria-labelledby="lineage-title" data-testid="lineage">
      <h2 id="lineage-title" style={{ marginTop: 0 }}>
        Lineage
      </h2>
      {parent && (
        <>
          <h3 className="facts-heading">What it changed against {parent.tag}</h3>
          <ParameterChanges changes={scenario.parameters} />
          <EditSentences edits={scenario.edits} rows={scenario.edits.map((e) => e.rows)} testId="lineage-edits" />
        </>
      )}
      {descendants.length > 0 && (
        <>
          <h3 className="facts-heading">Branches made from it</h3>
          <BranchTree sid={sid} nodes={descendants} />
        </>
      )}
    </section>
  );
}

function ParameterChanges({ changes }: { changes: readonly ParameterChange[] }) {
  if (changes.length === 0) return <p className="muted small">Same parameters.</p>;
  return (
    <ul className="param-changes" data-testid="parameter-changes">
      {changes.map((c) => (
        <li key={c.name}>
          {humanise(c.name.replace(/^(algo_params|data_params)\./, ''))}: {formatParam(c.from)} → <strong>{formatParam(c.to)}</strong>
        </li>
      ))}
    </ul>
  );
}

function BranchTree({ sid, nodes }: { sid: string; nodes: readonly LineageNode[] }) {
  return (
    <ul className="branch-tree">
      {nodes.map((node) => (
        <li key={node.id}>
          <Link to="/s/$sid/scenarios/$id" params={{ sid, id: node.id }}>
            {node.tag}
          </Link>{' '}
          <StatusBadge status={node.status} /> <span className="muted small">{changeSummary(node)}</span>
          {node.children && node.children.length > 0 && <BranchTree sid={sid} nodes={node.children} />}
        </li>
      ))}
    </ul>
  );
}

/** "2 parameters, 1 edit" */
function changeSummary(node: LineageNode): string {
  const parts = [
    node.parameters.length > 0 ? `${node.parameters.length} parameter${node.parameters.length === 1 ? '' : 's'}` : '',
    node.edits.length > 0 ? `${node.edits.length} edit${node.edits.length === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  return parts.length === 0 ? 'no changes' : parts.join(', ');
}
