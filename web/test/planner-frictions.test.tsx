import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { createApi } from '../src/api/client.ts';
import { ApiProvider } from '../src/api/context.tsx';
import { ApiConfig } from '../src/api/http.ts';
import type { SchemaGroup } from '../src/api/types.ts';
import { DropZone } from '../src/components/DropZone.tsx';
import { EtlReport } from '../src/components/EtlReport.tsx';
import { csvRecords } from '../src/data/csv-records.ts';
import { mergePicks } from '../src/data/merge-picks.ts';
import { ExperimentForm } from '../src/experiments/ExperimentForm.tsx';
import { formatNumber, formatParam, MINUS } from '../src/format.ts';
import { pageTitle } from '../src/page-title.ts';
import { ScenarioBatchBar } from '../src/pages/ScenarioBatchBar.tsx';
import { ScenarioCard } from '../src/pages/ScenarioCard.tsx';
import { labelsFrom } from '../src/params/parameter-labels.ts';
import { kpi, scenario } from './fixtures.ts';
import { renderWithApi } from './render-with-api.tsx';
import { app, BASE } from './render-app.tsx';

/**
 * The planner frictions of the second look ("tried as a new user would"), each through the components
 * a planner uses; the browser suite (e2e/) checks them again at 1440 and 390 px.
 */

const datasets = { items: [{ key: 'sample', kind: 'master', created_at: '2026-11-23T08:00:00.000Z', tables: [] }], next_cursor: null };
const csv = (name: string, text: string) => new File([text], name, { type: 'text/csv' });

function withApi(children: ReactNode) {
  return (
    <ApiProvider api={createApi(new ApiConfig('/api/v1', null))}>
      <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>
    </ApiProvider>
  );
}

describe('1. an experiment’s results can be downloaded from its page', () => {
  it('offers CSV and XLSX, fetched from the results export in that format', async () => {
    const experiment = {
      id: 'e1',
      name: 'sweep',
      algo_name: 'Greedy',
      dataset_key: 'sample',
      axes: { 'algo_params.rate': [0, 1] },
      repeats: 1,
      size: 2,
      counts: { CREATED: 0, QUEUED: 0, PROCESSING: 0, COMPLETE: 2, FAILED: 0 },
      progress: 1,
      summary: null,
      created_at: '2026-11-23T08:00:00.000Z',
      completed_at: '2026-11-23T08:01:00.000Z',
    };
    const server = app(
      {
        [`GET ${BASE}/experiments/e1`]: () => ({ body: experiment }),
        [`GET ${BASE}/experiments/e1/results`]: (request) =>
          new URL(request.url).searchParams.get('format') === 'json'
            ? { body: [] }
            : new Response('id,tag\n', { headers: { 'content-type': 'text/csv' } }),
        [`GET ${BASE}/algorithms/Greedy/parameters`]: () => ({ body: { name: 'Greedy', parameters: [{ name: 'rate', label: 'Cooling rate', type: 'float', required: false, value: 0.5 }] } }),
        [`GET ${BASE}/data/sample/parameters`]: () => ({ body: { name: 'sample', parameters: [] } }),
      },
      '/s/main/experiments/e1',
    );
    const csvButton = await screen.findByRole('button', { name: 'Download the results of sweep as CSV' }, { timeout: 5000 });
    expect(screen.getByRole('button', { name: 'Download the results of sweep as XLSX' })).toBeTruthy();
    fireEvent.click(csvButton);
    await expect.poll(() => server.requests.some((r) => r.url.endsWith('/experiments/e1/results?format=csv&style=readable'))).toBe(true);
    // The axis reads by its parameter's label, not its path (13).
    await expect.poll(() => screen.getByRole('heading', { level: 1 }).nextElementSibling?.textContent).toContain('varies Cooling rate');
  });
});

describe('2. a card’s Reset of a COMPLETE result asks first', () => {
  it('opens a confirm and sends nothing until it is confirmed; a FAILED one resets at once', async () => {
    const done = scenario({ id: 'a', tag: 'done', status: 'COMPLETE', kpis: { travel: kpi('travel', 3) } });
    const { server } = renderWithApi(<ScenarioCard sid="main" scenario={done} />, {
      [`POST ${BASE}/scenarios/a/reset`]: () => ({ body: { ...done, status: 'CREATED' } }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Reset done' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset scenario done?', hidden: true });
    expect(dialog.textContent).toMatch(/Its result and KPIs are deleted/);
    expect(server.requests.some((r) => r.method === 'POST')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset scenario', hidden: true }));
    await expect.poll(() => server.requests.filter((r) => r.method === 'POST').map((r) => new URL(r.url).pathname)).toEqual([`${BASE}/scenarios/a/reset`]);
  });

  it('resets a FAILED scenario without asking: there is no result to lose', async () => {
    const failed = scenario({ id: 'f', tag: 'broken', status: 'FAILED', error: { message: 'boom', code: 'ALGORITHM_ERROR' } });
    const { server } = renderWithApi(<ScenarioCard sid="main" scenario={failed} />, {
      [`POST ${BASE}/scenarios/f/reset`]: () => ({ body: { ...failed, status: 'CREATED' } }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Reset broken' }));
    await expect.poll(() => server.requests.some((r) => r.method === 'POST')).toBe(true);
  });
});

describe('3. a file picked again replaces the earlier pick of its schema group', () => {
  it('by the same name, or another format of the same group; other groups are added', () => {
    const first = csv('sku_data.csv', 'bad');
    const fixed = csv('sku_data.csv', 'good');
    const layout = csv('warehouse_layout.csv', 'x');
    expect(mergePicks([first, layout], [fixed])).toEqual([fixed, layout]);
    const workbook = new File(['x'], 'SKU_DATA.xlsx');
    expect(mergePicks([first], [workbook, layout])).toEqual([workbook, layout]);
  });

  it('shows one chosen file after the same name is dropped twice', () => {
    let files: File[] = [];
    const { rerender } = render(<DropZone files={files} onFiles={(f) => (files = f)} />);
    const drop = (file: File) => fireEvent.drop(screen.getByTestId('dropzone'), { dataTransfer: { files: [file] } });
    drop(csv('sku_data.csv', 'bad'));
    rerender(<DropZone files={files} onFiles={(f) => (files = f)} />);
    drop(csv('sku_data.csv', 'good'));
    rerender(<DropZone files={files} onFiles={(f) => (files = f)} />);
    expect(within(screen.getByRole('list', { name: 'Chosen files' })).getAllByRole('listitem')).toHaveLength(1);
  });
});

describe('4. uploading under an existing dataset name asks first, saying how many scenarios use it', () => {
  it('opens a confirm naming the 2 scenarios, and uploads only once confirmed', async () => {
    const server = app(
      {
        [`GET ${BASE}/data`]: () => ({ body: datasets }),
        [`GET ${BASE}/scenarios`]: () => ({ body: [scenario({ id: 'a', tag: 'a', input_data_id: 'sample' }), scenario({ id: 'b', tag: 'b', input_data_id: 'sample' }), scenario({ id: 'c', tag: 'c', input_data_id: 'other' })] }),
        [`POST ${BASE}/etl`]: () => ({ body: { dataset_name: 'sample', success: true, keys: ['sample'], messages: [] } }),
        [`GET ${BASE}/data/sample`]: () => ({ body: { key: 'sample', tables: {} } }),
      },
      '/s/main/data',
    );
    const name = await screen.findByLabelText('Dataset name', {}, { timeout: 5000 });
    // Disabled Upload says why (13).
    expect(screen.getByTestId('upload-hint').textContent).toBe('To upload, type a dataset name and choose or drop the files.');
    fireEvent.change(name, { target: { value: 'sample' } });
    fireEvent.drop(screen.getByTestId('dropzone'), { dataTransfer: { files: [csv('sku_data.csv', 'sku\n1\n')] } });
    await waitFor(() => expect(screen.queryByTestId('upload-hint')).toBeNull());
    await expect.poll(() => server.requests.some((r) => r.url.endsWith('/scenarios'))).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    const dialog = await screen.findByRole('dialog', { name: 'Replace dataset?', hidden: true });
    await waitFor(() => expect(within(dialog).getByTestId('replace-message').textContent).toMatch(/2 scenarios use it/));
    expect(server.requests.some((r) => r.method === 'POST')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Replace dataset', hidden: true }));
    await expect.poll(() => server.requests.some((r) => r.method === 'POST' && r.url.endsWith('/etl'))).toBe(true);
  });
});

describe('5. parameters are shown exactly; KPIs stay rounded', () => {
  it('0.995 reads 0.995, not 1; a KPI of 0.995 still rounds', () => {
    expect(formatParam(0.995)).toBe((0.995).toLocaleString(undefined, { maximumFractionDigits: 3 }));
    expect(formatParam(0.995)).not.toBe(formatNumber(0.995));
    expect(formatParam(60000)).toBe((60000).toLocaleString());
    expect(formatParam(1.5e-7)).toBe((0.00000015).toLocaleString(undefined, { maximumFractionDigits: 8 }));
    expect(formatParam(-2.125)).toBe(`${MINUS}${(2.125).toLocaleString(undefined, { maximumFractionDigits: 3 })}`);
    expect(formatNumber(0.995)).toBe((1).toLocaleString());
    expect(formatParam('')).toBe('(empty)');
  });

  it('a card shows the cooling rate it was set with', () => {
    const rate = { name: 'cooling_rate', label: 'Cooling rate', type: 'float', required: false, value: 0.995, default: 0.99 } as const;
    render(withApi(<ScenarioCard sid="main" scenario={scenario({ id: 'a', tag: 'sa', algorithm: { name: 'SA', parameters: [rate] } })} />));
    expect(screen.getByTestId('key-params').textContent).toBe(`Cooling rate ${(0.995).toLocaleString(undefined, { maximumFractionDigits: 3 })}`);
  });
});

describe('6. a filtered list and the batch bar', () => {
  it('a filter matching nothing says so, with a way to clear it', async () => {
    app({ [`GET ${BASE}/scenarios`]: () => ({ body: [scenario({ id: 'a', tag: 'alpha' }), scenario({ id: 'b', tag: 'beta' })] }) }, '/s/main/scenarios?tag=zeta');
    const note = await screen.findByTestId('no-match', {}, { timeout: 5000 });
    expect(note.textContent).toMatch(/No scenario has a tag containing “zeta”\. Clear the filter to see all 2\./);
    fireEvent.click(within(note).getByRole('button', { name: 'Clear the filter' }));
    await waitFor(() => expect(screen.getAllByTestId('scenario-card')).toHaveLength(2));
  });

  it('with nothing ticked it offers no action on the whole session until "all" is chosen', async () => {
    const { server } = renderWithApi(<ScenarioBatchBar sid="main" selected={new Set()} matching={14} status="" query="" onClear={() => undefined} />, {
      [`POST ${BASE}/scenarios:delete`]: () => ({ body: { changed: 14, skipped: 0, changed_ids: [], skipped_ids: [] } }),
    });
    expect(screen.queryByRole('button', { name: 'Delete 14' })).toBeNull();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: /^Delete/ }).disabled).toBe(true);
    expect(screen.getByTestId('batch-hint').textContent).toBe('Nothing ticked: tick the scenarios to act on, or choose all of them above.');
    fireEvent.click(screen.getByRole('radio', { name: 'all 14 of the session' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete 14' }));
    const dialog = await screen.findByRole('dialog', { hidden: true });
    expect(dialog.textContent).toMatch(/Delete 14 scenarios \(every scenario of the session\)\?/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete 14 scenarios', hidden: true }));
    expect(await screen.findByText(/Delete: 14 changed, 0 skipped/)).toBeTruthy();
    expect(await server.requests.find((r) => r.method === 'POST')?.clone().json()).toEqual({ filter: {} });
  });
});

describe('7. the experiment form', () => {
  const algorithms = [
    { name: 'Greedy', description: 'greedy', tags: [] },
    { name: 'Instant', description: 'for tests', tags: ['diagnostic'] },
  ];
  const routes = (create: () => { status: number; body: unknown }) => ({
    [`GET ${BASE}/data`]: () => ({ body: datasets }),
    [`GET ${BASE}/algorithms`]: () => ({ body: { items: algorithms } }),
    [`GET ${BASE}/algorithms/Greedy/parameters`]: () => ({
      body: {
        name: 'Greedy',
        parameters: [
          { name: 'rate', type: 'float', required: false, label: 'Rate', value: null, default: 0.5, min: 0, max: 1 },
          { name: 'depot_x', type: 'float', required: false, label: 'Depot x', value: null, default: 0 },
        ],
      },
    }),
    [`GET ${BASE}/data/sample/parameters`]: () => ({
      body: { name: 'sample', parameters: [{ name: 'category', type: 'enum', required: false, label: 'Category', value: null, choices: ['A', 'B'] }] },
    }),
    [`POST ${BASE}/experiments`]: create,
  });

  it('leaves the diagnostic algorithms out', async () => {
    renderWithApi(<ExperimentForm sid="main" onCreated={() => undefined} />, routes(() => ({ status: 500, body: {} })));
    const select = await screen.findByLabelText<HTMLSelectElement>('Algorithm');
    await expect.poll(() => [...select.options].map((o) => o.value)).toEqual(['Greedy']);
  });

  it('refuses an empty From or To at the field, sending nothing', async () => {
    const { server } = renderWithApi(<ExperimentForm sid="main" onCreated={() => undefined} />, routes(() => ({ status: 500, body: {} })));
    fireEvent.click(await screen.findByRole('checkbox', { name: /Vary Rate/ }));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'sweep' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '1' } });
    const axis = screen.getAllByTestId('axis')[0]!;
    expect(within(axis).getByRole('alert').textContent).toBe('enter a number in From');
    expect(screen.getByLabelText('From').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Create experiment' }).disabled).toBe(true);
    fireEvent.submit(screen.getByRole('button', { name: 'Create experiment' }).closest('form')!);
    // A mutation reaches fetch only after its own awaited steps: let every queued promise settle
    // (a turn of the event loop) before saying no request was sent.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(server.requests.some((r) => r.method === 'POST')).toBe(false);
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '0' } });
    expect(within(axis).queryByRole('alert')).toBeNull();
  });

  it('sends fixed values for the parameters it does not vary and for the data parameters', async () => {
    const { server } = renderWithApi(
      <ExperimentForm sid="main" onCreated={() => undefined} />,
      routes(() => ({ status: 201, body: { id: 'e1' } })),
    );
    fireEvent.click(await screen.findByRole('checkbox', { name: /Vary Rate/ }));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'sweep' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '0.1' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '0.9' } });
    const fixed = within(screen.getByTestId('fixed-algo-params'));
    // The varied parameter has no fixed field; the other one does, at its default.
    expect(fixed.queryByLabelText('Rate')).toBeNull();
    fireEvent.change(fixed.getByLabelText('Depot x'), { target: { value: '12.5' } });
    fireEvent.change(await within(await screen.findByTestId('fixed-data-params')).findByLabelText(/^Category/), { target: { value: 'B' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create experiment' }));
    await expect.poll(() => server.requests.some((r) => r.method === 'POST')).toBe(true);
    expect(await server.requests.find((r) => r.method === 'POST')!.clone().json()).toMatchObject({
      algo_params: { depot_x: 12.5 },
      data_params: { category: 'B' },
      axes: { 'algo_params.rate': { from: 0.1, to: 0.9, steps: 2 } },
    });
  });
});

describe('11. the scenario page tells the run seed from a seed parameter', () => {
  it('labels the run’s seed and heads the parameters by whose they are', async () => {
    const seed = { name: 'seed', label: 'Seed', type: 'integer', required: false, value: 42, default: 42 } as const;
    const s = scenario({ id: 's1', tag: 'sa', status: 'COMPLETE', seed: 368478494, algorithm: { name: 'SA', parameters: [seed] } });
    app({ [`GET ${BASE}/scenarios`]: () => ({ body: [s] }), [`GET ${BASE}/scenarios/s1`]: () => ({ body: s }) }, '/s/main/scenarios/s1');
    const seedValue = await screen.findByTestId('seed', {}, { timeout: 5000 });
    expect(seedValue.previousElementSibling?.textContent).toMatch(/^Run seedDrawn for each run/);
    expect(screen.getByRole('heading', { name: 'Parameters of SA' })).toBeTruthy();
    expect(screen.getByTestId('algorithm-parameters').querySelector('[data-param=seed]')?.textContent).toBe('42');
    await waitFor(() => expect(document.title).toBe('Scenario sa · main · Scenarist'));
  });
});

describe('12. creating a session opens its home', () => {
  it('navigates to the new session', async () => {
    const created = { sessions: [{ id: '00000000-0000-4000-8000-000000000001', display_name: 'main' }, { id: '00000000-0000-4000-8000-000000000002', display_name: 'plan b' }], default: '' };
    const server = app({ 'POST /api/v1/sessions': () => ({ status: 201, body: created }) }, '/');
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'plan b' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create session' }));
    await waitFor(() => expect(server.router.state.location.pathname).toBe('/s/00000000-0000-4000-8000-000000000002'));
  });
});

describe('13. labels, markdown, row places and titles', () => {
  it('labels parameters from their declarations, data parameters too', () => {
    const labelOf = labelsFrom(
      [{ name: 'depot_x', label: 'Depot x', type: 'float', required: false, value: null }],
      [{ name: 'category', label: 'Product category', type: 'string', required: false, value: null }],
    );
    expect(['depot_x', 'algo_params.depot_x', 'data_params.category', 'data_params.days_back', 'dataset_key'].map(labelOf)).toEqual([
      'Depot x',
      'Depot x',
      'Product category',
      'Days back',
      'Dataset',
    ]);
  });

  it('renders the markdown of the home page’s descriptions', async () => {
    const group = {
      name: 'sku_data',
      description: 'One row per `SKU`.',
      required: true,
      file_names: ['sku_data.csv'],
      tables: [{ name: 'sku_data', description: null, columns: [{ name: 'category', type: 'string', required: true, nullable: false, key: null, unit: null, description: 'the `category` data parameter filters on it' }] }],
    };
    app({ [`GET ${BASE}/schemas`]: () => ({ body: { items: [group] } }) }, '/s/main');
    const step = await screen.findByTestId('schema-group', {}, { timeout: 5000 });
    expect(step.textContent).not.toContain('`');
    expect([...step.querySelectorAll('code')].map((c) => c.textContent)).toEqual(['sku_data.csv', 'SKU', 'category', 'category']);
  });

  it('reads CSV records as the server does: its delimiter, quotes spanning lines, blank lines', () => {
    const records = csvRecords('\uFEFFsku;name\r\nA;"two\nlines"\r\n\r\nB;"say ""hi"""\r\n', 10);
    expect(records.map((r) => [r.line, ...r.fields])).toEqual([
      [1, 'sku', 'name'],
      [2, 'A', 'two\nlines'],
      [4, ''],
      [5, 'B', 'say "hi"'],
    ]);
  });

  it('says the line and the key of a faulty row of a CSV file', async () => {
    const groups = [
      {
        name: 'sku_data',
        description: null,
        required: true,
        file_names: ['sku_data.csv'],
        tables: [{ name: 'sku_data', description: null, columns: [{ name: 'sku', type: 'string', required: true, nullable: false, key: 'primary', unit: null, description: null }] }],
      },
    ] as unknown as SchemaGroup[];
    const file = csv('sku_data.csv', 'sku,picks\nA,1\n"B\nb",2\nC,x\n');
    render(
      withApi(
        <EtlReport
          result={{
            dataset_name: 'd',
            success: false,
            keys: [],
            messages: [
              { severity: 'error', file: 'sku_data.csv', table: 'sku_data', column: 'picks', row: 3, message: '"x" is not a valid integer' },
              { severity: 'error', file: 'layout.xlsx', table: 'layout', column: 'x', row: 3, message: 'empty' },
            ],
          }}
          files={[file]}
          groups={groups}
        />,
      ),
    );
    await waitFor(() => expect(screen.getAllByTestId('etl-row').map((c) => c.textContent)).toEqual(['3 (line 5, key C)', '3 (sheet row 4)']));
  });

  it('names each page in the title: page, session, app', () => {
    expect(pageTitle('Data', 'main')).toBe('Data · main · Scenarist');
    expect(pageTitle('Sessions')).toBe('Sessions · Scenarist');
  });
});
