import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Report } from '../src/api/decisions.ts';
import type { ExplanationPage, Violation, Waterfall } from '../src/api/explanations.ts';
import type { Scenario } from '../src/api/types.ts';
import { diffViolations } from '../src/explanations/violation-diff.ts';
import { waterfallBars } from '../src/explanations/waterfall.ts';
import { causeSentence, changeSentence } from '../src/explanations/words.ts';
import { app, BASE } from './render-app.tsx';
import { scenario } from './fixtures.ts';

/** The pages load lazily: on a busy machine the first find may take longer than the default second. */
const SLOW = { timeout: 10_000 };

const travel = { name: 'Travel Distance', value: 60, unit: 'm', better_when: 'LOWER' as const, threshold: null };
const base = scenario({ id: 's1', tag: 'base', status: 'COMPLETE', finished_at: '2026-11-23T08:05:00.000Z', kpis: { 'Travel Distance': { ...travel, value: 100 } } });
const greedy = scenario({ id: 's2', tag: 'greedy', status: 'COMPLETE', finished_at: '2026-11-23T08:06:00.000Z', kpis: { 'Travel Distance': travel } });

const column = (name: string, key: 'primary' | null = null) => ({ name, type: 'string', required: true, nullable: false, key, unit: null, description: null });
const SCHEMAS = {
  items: [
    { name: 'warehouse_layout', description: null, required: true, file_names: ['warehouse_layout.csv'], tables: [{ name: 'warehouse_layout', description: null, columns: [column('location', 'primary'), column('zone')] }] },
    { name: 'sku_data', description: null, required: true, file_names: ['sku_data.csv'], tables: [{ name: 'sku_data', description: null, columns: [column('sku', 'primary'), column('category')] }] },
  ],
};
const DATASET = {
  key: 'example',
  kind: 'master',
  tables: {
    warehouse_layout: { columns: [{ name: 'location', type: 'string' }, { name: 'zone', type: 'string' }], rows: [['L1', 'A'], ['L2', 'B']] },
    sku_data: { columns: [{ name: 'sku', type: 'string' }, { name: 'category', type: 'string' }], rows: [['SKU-1', 'dairy'], ['SKU-2', 'pet'], ['SKU-3', 'dairy']] },
  },
};

const capacity: Violation = {
  constraint: 'capacity',
  severity: 'hard',
  amount: 1,
  rows: [{ table: 'warehouse_layout', key: 'L1' }, { table: 'sku_data', key: 'SKU-1' }, { table: 'sku_data', key: 'SKU-3' }],
  message: 'L1 (zone A) holds 2 SKUs but has room for 1',
};
const reach: Violation = { constraint: 'reach', severity: 'soft', amount: 0.5, rows: [{ table: 'sku_data', key: 'SKU-2' }], message: 'SKU-2 sits on a top shelf' };

/** Two pages: the hard violation first, the soft one behind "Show more". Travel's zones leave 4 m unexplained. */
function explanationOf(request: Request): ExplanationPage {
  const cursor = new URL(request.url).searchParams.get('cursor');
  return {
    kpis: [
      {
        kpi: 'Travel Distance',
        by: 'zone',
        value: 60,
        terms: [{ term: 'B', value: 36 }, { term: 'A', value: 15 }, { term: 'C', value: 5 }],
        residual: 4,
        tolerance: 1e-9,
        adds_up: false,
      },
    ],
    violations: cursor === null ? [capacity] : [reach],
    violation_count: 2,
    infeasible: true,
    next_cursor: cursor === null ? 'page-2' : null,
  };
}

const scenarioRoutes = {
  [`GET ${BASE}/scenarios`]: () => ({ body: [base, greedy] }),
  [`GET ${BASE}/scenarios/s2`]: () => ({ body: greedy }),
  [`GET ${BASE}/scenarios/s2/explanation`]: (r: Request) => ({ body: explanationOf(r) }),
  [`GET ${BASE}/schemas`]: () => ({ body: SCHEMAS }),
  [`GET ${BASE}/data/example`]: () => ({ body: DATASET }),
  [`GET ${BASE}/data/example/parameters`]: () => ({ body: { name: 'example', parameters: [] } }),
};

describe('Why this plan, on the scenario page', () => {
  it('lists each KPI’s terms in the server’s order (largest first), says what they leave unexplained, and says the plan is infeasible', async () => {
    app(scenarioRoutes, '/s/main/scenarios/s2');
    const terms = await screen.findByTestId('kpi-terms', {}, SLOW);
    expect(within(terms).getAllByTestId('term').map((t) => t.querySelector('th')?.textContent)).toEqual(['B', 'A', 'C']);
    expect(within(terms).getByTestId('residual').textContent).toBe(
      'The zone figures add up to 56 m, not 60 m: 4 m of Travel Distance is not explained by any zone.',
    );
    expect(screen.getByTestId('infeasible').textContent).toMatch(/^Infeasible: this plan breaks a rule that must hold/);
  });

  it('lists the violations hard first with their rows linked into the Data page, and pages the rest with Show more', async () => {
    const server = app(scenarioRoutes, '/s/main/scenarios/s2');
    const first = await screen.findByTestId('violation', {}, SLOW);
    expect(first.dataset.severity).toBe('hard');
    expect(screen.getByTestId('violation-count').textContent).toBe('This plan breaks 2 rules.');
    const links = within(first).getAllByTestId('row-link');
    expect(links.map((a) => a.textContent)).toEqual(['warehouse_layout L1', 'sku_data SKU-1', 'sku_data SKU-3']);
    expect(links[1]!.getAttribute('href')).toBe('/s/main/data?dataset=example&table=sku_data&row=SKU-1');

    fireEvent.click(screen.getByRole('button', { name: 'Show more (1 of 2 shown)' }));
    await waitFor(() => expect(screen.getAllByTestId('violation').map((v) => v.dataset.severity)).toEqual(['hard', 'soft']));
    const asked = server.requests.filter((r) => r.url.includes('/explanation')).map((r) => new URL(r.url).searchParams.get('cursor'));
    expect(asked).toEqual([null, 'page-2']);
    expect(screen.queryByRole('button', { name: /Show more/ })).toBeNull();
  });

  it('opens a violation’s row in the Data page: its dataset, its table, only that row', async () => {
    const server = app(scenarioRoutes, '/s/main/scenarios/s2');
    const first = await screen.findByTestId('violation', {}, SLOW);
    fireEvent.click(within(first).getByText('sku_data SKU-3'));
    await waitFor(() => expect(server.router.state.location.pathname).toBe('/s/main/data'));
    expect((await screen.findByTestId('focused-row', {}, SLOW)).textContent).toMatch(/^Showing the row SKU-3 of sku_data\./);
    expect(screen.getByTestId('row-count').textContent).toBe('1 rows × 2 columns');
    fireEvent.click(screen.getByRole('button', { name: 'Show every row' }));
    await waitFor(() => expect(screen.getByTestId('row-count').textContent).toBe('3 rows × 2 columns'));
  });

  it('What if… opens the branch editor filtered to the violation’s rows, table by table', async () => {
    const server = app(scenarioRoutes, '/s/main/scenarios/s2');
    const first = await screen.findByTestId('violation', {}, SLOW);
    fireEvent.click(within(first).getByRole('link', { name: /^What if… with the rows of/ }));
    await waitFor(() => expect(server.router.state.location.pathname).toBe('/s/main/scenarios/s2/what-if'));
    expect(server.router.state.location.search).toEqual({ rows: capacity.rows });
    await screen.findByTestId('rows-filter-note', {}, SLOW);
    await waitFor(() => expect(screen.getByTestId('shown-count').textContent).toBe('1 of 2 rows shown'));
    expect(screen.getByLabelText<HTMLInputElement>('Value of condition 1').value).toBe('L1');
    fireEvent.click(screen.getByRole('tab', { name: /^sku_data/ }));
    await waitFor(() => expect(screen.getByTestId('shown-count').textContent).toBe('2 of 3 rows shown'));
    expect(screen.getByLabelText<HTMLInputElement>('Value of condition 1').value).toBe('SKU-1, SKU-3');
  });

  it('says so when the algorithm explains nothing', async () => {
    const plain: ExplanationPage = { kpis: [], violations: [], violation_count: 0, infeasible: false, next_cursor: null };
    app({ ...scenarioRoutes, [`GET ${BASE}/scenarios/s2/explanation`]: () => ({ body: plain }) }, '/s/main/scenarios/s2');
    const section = await screen.findByTestId('why-this-plan', {}, SLOW);
    await waitFor(() => expect(within(section).getByText('The algorithm gave no explanation of this plan.')).toBeTruthy());
    expect(within(section).queryByTestId('infeasible')).toBeNull();
  });
});

/** Ten zones, so the chart folds the smallest into one bar; 1 m unexplained. */
const travelWaterfall: Waterfall = {
  kpi: 'Travel Distance',
  by: 'zone',
  scenario_id: 's2',
  from: 100,
  to: 60,
  terms: [
    { term: 'B', from: 50, to: 20, delta: -30 },
    { term: 'A', from: 30, to: 25, delta: -5 },
    ...Array.from({ length: 8 }, (_, i) => ({ term: `Z${i}`, from: 2, to: 1.5, delta: -0.5 })),
  ],
  residual: -1,
};

describe('the waterfall', () => {
  it('walks from the baseline’s value to the scenario’s: baseline + every delta + residual = the scenario’s value', () => {
    const bars = waterfallBars(travelWaterfall, 'base', 'greedy');
    expect(bars.map((b) => b.kind)).toEqual(['total', ...Array<string>(7).fill('term'), 'others', 'residual', 'total']);
    expect(bars.find((b) => b.kind === 'others')).toMatchObject({ label: '3 other zones', value: -1.5 });
    const steps = bars.slice(1, -1);
    for (let i = 1; i < steps.length; i++) expect(steps[i]!.start).toBe(steps[i - 1]!.end);
    expect(steps[0]!.start).toBe(100);
    expect(steps.at(-1)!.end).toBeCloseTo(60, 12);
    expect(100 + steps.reduce((sum, b) => sum + b.value, 0)).toBeCloseTo(bars.at(-1)!.value, 12);
  });

  it('says how the KPI moved and what moved it, in words', () => {
    expect(changeSentence(travelWaterfall, 'base', 'greedy', 'm')).toBe('Travel Distance fell by 40 m (−40%) from base to greedy, 100 m to 60 m.');
    expect(causeSentence(travelWaterfall, 'm')).toBe('Most of the change is zone B (−30 m), then zone A (−5 m) and zone Z0 (−0.5 m).');
    const even = [{ term: 'B', from: 20, to: 10, delta: -10 }, { term: 'A', from: 20, to: 10, delta: -10 }, { term: 'C', from: 20, to: 10, delta: -10 }];
    expect(causeSentence({ ...travelWaterfall, terms: even }, 'm')).toBe('The largest changes are zone B (−10 m), zone A (−10 m) and zone C (−10 m).');
    expect(causeSentence({ ...travelWaterfall, terms: [{ term: 'B', from: 50, to: 20, delta: -30 }] }, 'm')).toBe('Most of the change is zone B (−30 m).');
  });
});

describe('Compare: why the KPIs changed', () => {
  const compared = [base, greedy].map((s) => ({ id: s.id, tag: s.tag, status: s.status, algorithm: s.algorithm.name, dataset_key: 'example' }));
  const kpi = {
    name: 'Travel Distance',
    unit: 'm',
    better_when: 'LOWER',
    threshold: null,
    best: 's2',
    values: [
      { scenario_id: 's1', value: 100, delta: null, relative_delta: null, comparison: null },
      { scenario_id: 's2', value: 60, delta: -40, relative_delta: -0.4, comparison: 'better' },
    ],
  };
  const mended: Violation = { ...reach, rows: [{ table: 'sku_data', key: 'SKU-1' }], message: 'SKU-1 sits on a top shelf' };
  const kept: Violation = { ...capacity, amount: 2, message: 'L1 (zone A) holds 3 SKUs but has room for 1' };
  const pageOf = (violations: Violation[]): ExplanationPage => ({ kpis: [], violations, violation_count: violations.length, infeasible: true, next_cursor: null });
  const routes = {
    [`GET ${BASE}/scenarios`]: () => ({ body: [base, greedy] }),
    [`GET ${BASE}/compare`]: () => ({ body: { baseline: 's1', scenarios: compared, kpis: [kpi], parameters: [], explanations: [travelWaterfall] } }),
    [`GET ${BASE}/compare/views`]: () => ({ body: { items: [] } }),
    [`GET ${BASE}/scenarios/s1/explanation`]: () => ({ body: pageOf([kept, mended]) }),
    [`GET ${BASE}/scenarios/s2/explanation`]: () => ({ body: pageOf([capacity, reach]) }),
  };

  it('answers "why did Travel Distance fall?" with a sentence and a waterfall whose bars add up to the new value', async () => {
    app(routes, '/s/main/compare?ids=s1,s2&baseline=s1');
    expect(await screen.findByRole('heading', { name: 'Why Travel Distance changed' }, SLOW)).toBeTruthy();
    expect(screen.getByTestId('change-sentence').textContent).toBe(
      'Travel Distance fell by 40 m (−40%) from base to greedy, 100 m to 60 m. Most of the change is zone B (−30 m), then zone A (−5 m) and zone Z0 (−0.5 m).',
    );
    const bars = screen.getAllByTestId('waterfall-bar').map((g) => ({ kind: g.dataset.kind, value: Number(g.dataset.value), end: Number(g.dataset.end) }));
    const steps = bars.slice(1, -1);
    expect(bars[0]).toMatchObject({ kind: 'total', value: 100 });
    expect(bars.at(-1)).toMatchObject({ kind: 'total', value: 60 });
    expect(bars[0]!.value + steps.reduce((sum, b) => sum + b.value, 0)).toBeCloseTo(60, 12);
    expect(steps.map((b) => b.kind)).toContain('residual');
    expect(screen.getByTestId('waterfall-residual').textContent).toBe('−1 m of the change is not explained by any zone: the zone figures do not add up to Travel Distance exactly.');
  });

  it('lists the rules the scenario newly breaks and those it no longer breaks (the same rule on the same rows counts as kept)', async () => {
    app(routes, '/s/main/compare?ids=s1,s2&baseline=s1');
    const diff = await screen.findByTestId('rules-diff', {}, SLOW);
    expect(within(diff).getByTestId('rules-diff-sentence').textContent).toBe('greedy breaks one rule that base keeps, and keeps one rule that base breaks; 1 broken in both.');
    expect(within(within(diff).getByTestId('appeared')).getAllByTestId('violation').map((v) => v.querySelector('p')?.textContent)).toEqual(['SKU-2 sits on a top shelf']);
    expect(within(within(diff).getByTestId('disappeared')).getAllByTestId('violation').map((v) => v.querySelector('p')?.textContent)).toEqual(['SKU-1 sits on a top shelf']);
    expect(within(diff).getByRole('link', { name: 'sku_data SKU-2' }).getAttribute('href')).toBe('/s/main/data?dataset=example&table=sku_data&row=SKU-2');
  });

  it('tells violations apart by rule and rows, not by amount or sentence', () => {
    expect(diffViolations([capacity], [{ ...capacity, amount: 3, message: 'other words' }])).toEqual({ appeared: [], disappeared: [], kept: 1 });
    const moved = { ...capacity, rows: [{ table: 'warehouse_layout', key: 'L2' }] };
    expect(diffViolations([capacity], [moved])).toEqual({ appeared: [moved], disappeared: [capacity], kept: 0 });
  });
});

describe('a report’s frozen explanation', () => {
  const scenarios = [base, greedy].map((s: Scenario) => ({ id: s.id, tag: s.tag, status: s.status, algorithm: s.algorithm.name, dataset_key: 'example' }));
  const REPORT: Report = {
    id: 'r1',
    title: 'Slotting decision',
    note: null,
    created_at: '2026-11-27T15:00:00.000Z',
    created_by: { id: 'tok', name: 'planning desk' },
    baseline: 's1',
    input_changes: [],
    scenarios,
    kpis: [
      {
        name: 'Travel Distance',
        unit: 'm',
        better_when: 'LOWER',
        threshold: null,
        best: 's2',
        values: [
          { scenario_id: 's1', value: 100, delta: null, relative_delta: null, comparison: null },
          { scenario_id: 's2', value: 60, delta: -40, relative_delta: -0.4, comparison: 'better' },
        ],
      },
    ] as Report['kpis'],
    parameters: [],
    inputs: [],
    views: { comparison: [], scenarios: [] },
    explanations: {
      waterfalls: [travelWaterfall],
      scenarios: [
        { scenario_id: 's1', kpis: [], violations: [], violation_count: 0, infeasible: false },
        { scenario_id: 's2', kpis: explanationOf(new Request('http://x/')).kpis, violations: [capacity], violation_count: 140, infeasible: true },
      ],
    },
  };

  it('shows the frozen waterfall, each explained scenario’s terms and first violations as text, and how many it kept', async () => {
    app({ [`GET ${BASE}/reports/r1`]: () => ({ body: REPORT }) }, '/s/main/reports/r1');
    const section = await screen.findByTestId('report-explanations', {}, SLOW);
    expect(within(section).getByRole('heading', { name: 'Why Travel Distance changed' })).toBeTruthy();
    expect(within(section).getByTestId('change-sentence').textContent).toMatch(/^Travel Distance fell by 40 m \(−40%\) from base to greedy/);
    expect(within(section).getAllByTestId('waterfall-bar')).toHaveLength(11);
    // The baseline explained nothing: only greedy has a part of its own.
    const explained = within(section).getAllByTestId('report-why-scenario');
    expect(explained.map((e) => e.dataset.scenario)).toEqual(['greedy']);
    const greedyPart = explained[0]!;
    expect(within(greedyPart).getByTestId('infeasible')).toBeTruthy();
    expect(within(greedyPart).getAllByTestId('term').map((t) => t.querySelector('th')?.textContent)).toEqual(['B', 'A', 'C']);
    expect(within(greedyPart).getByTestId('residual')).toBeTruthy();
    expect(within(greedyPart).getByTestId('violation').textContent).toContain('Rows: warehouse_layout L1, sku_data SKU-1, sku_data SKU-3');
    expect(within(greedyPart).queryAllByRole('link')).toHaveLength(0);
    expect(within(greedyPart).getByText('The report keeps the first 1 of 140.')).toBeTruthy();
  });
});
