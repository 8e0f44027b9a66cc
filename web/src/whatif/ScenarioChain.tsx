import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';
import { editsTowards, scenarioLineage, type LineageNode, type LineageTreeNode, type ParameterChange } from '../api/what-if.ts';
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
  if (scenario.parent_deleted) {
    return (
      <p className="small muted chain-line" data-testid="parent-deleted">
        Branched from {scenario.parent_deleted.tag}, since deleted: a root now.
      </p>
    );
  }
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
          <ParameterChanges changes={scenario.changes?.parameters ?? []} />
          <DataChanges node={scenario} />
        </>
      )}
      {descendants.length > 0 && (
        <>
          <h3 className="facts-heading">Branches made from it</h3>
          <BranchTree sid={sid} nodes={descendants} />
          {lineage.data.descendants_truncated && <p className="muted small">The latest branches past the server’s limit are left out.</p>}
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

/** The edits that made its dataset from its parent's (or a word that its data is another dataset altogether). */
function DataChanges({ node }: { node: LineageNode }) {
  const data = node.changes?.data;
  if (!data) return <p className="muted small">Same data.</p>;
  if (data.relation === 'unrelated') {
    return (
      <p className="small">
        Other data: <strong>{data.to}</strong> instead of {data.from}.
      </p>
    );
  }
  const edits = editsTowards(data);
  return (
    <>
      <p className="small" style={{ margin: '0.25rem 0' }}>
        Data: <strong>{data.to}</strong>, derived from {data.from}
        {edits.length > 0 ? ':' : ' unchanged.'}
      </p>
      {edits.length > 0 && <EditSentences edits={edits} rows={edits.map((e) => e.rows)} testId="lineage-edits" />}
    </>
  );
}

function BranchTree({ sid, nodes }: { sid: string; nodes: readonly LineageTreeNode[] }) {
  return (
    <ul className="branch-tree">
      {nodes.map((node) => (
        <li key={node.id}>
          <Link to="/s/$sid/scenarios/$id" params={{ sid, id: node.id }}>
            {node.tag}
          </Link>{' '}
          <StatusBadge status={node.status} /> <span className="muted small">{changeSummary(node)}</span>
          {node.children.length > 0 && <BranchTree sid={sid} nodes={node.children} />}
        </li>
      ))}
    </ul>
  );
}

/** "2 parameters, 1 edit" */
function changeSummary(node: LineageNode): string {
  const parameters = node.changes?.parameters ?? [];
  const edits = editsTowards(node.changes?.data);
  const parts = [
    parameters.length > 0 ? `${parameters.length} parameter${parameters.length === 1 ? '' : 's'}` : '',
    edits.length > 0 ? `${edits.length} edit${edits.length === 1 ? '' : 's'}` : '',
    node.changes?.data?.relation === 'unrelated' ? 'other data' : '',
  ].filter(Boolean);
  return parts.length === 0 ? 'no changes' : parts.join(', ');
}
