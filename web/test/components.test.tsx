import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createApi } from '../src/api/client.ts';
import { ApiProvider } from '../src/api/context.tsx';
import { ApiConfig } from '../src/api/http.ts';
import { DataGrid } from '../src/components/DataGrid.tsx';
import { EtlReport } from '../src/components/EtlReport.tsx';
import { ScenarioCard } from '../src/pages/ScenarioCard.tsx';
import { kpi, scenario } from './fixtures.ts';

function wrap(children: ReactNode) {
  const api = createApi(new ApiConfig('/api/v1', null));
  return (
    <ApiProvider api={api}>
      <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>
    </ApiProvider>
  );
}

describe('DataGrid', () => {
  it('keeps 100 000 rows out of the DOM: only the rows in view are rendered', () => {
    // happy-dom has no layout: give the scrolling viewport the size a browser would.
    const height = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 420 });
    const width = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientWidth');
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1000 });
    onTestFinished(() => {
      if (height) Object.defineProperty(HTMLElement.prototype, 'clientHeight', height);
      if (width) Object.defineProperty(HTMLElement.prototype, 'clientWidth', width);
    });
    const rows = Array.from({ length: 100_000 }, (_, i) => [`SKU-${i}`, i * 1.5]);
    render(<DataGrid columns={[{ name: 'sku', type: 'string' }, { name: 'picks', type: 'float' }]} rows={rows} caption="skus" />);
    const rendered = document.querySelectorAll('tbody tr:not([aria-hidden])');
    expect(rendered.length).toBeGreaterThan(5);
    expect(rendered.length).toBeLessThan(100);
    expect(screen.getByText('SKU-0')).toBeTruthy();
    expect(document.querySelector('table')!.getAttribute('aria-rowcount')).toBe('100001');
  });
});

describe('EtlReport', () => {
  it('lists every message with its file, table, column and row', async () => {
    render(
      wrap(
        <EtlReport
          result={{
            dataset_name: 'd',
            success: false,
            keys: [],
            messages: [
              { severity: 'error', file: 'sku_data.csv', table: 'sku_data', column: 'daily_picks', row: 7, message: 'not a number: "x"' },
              { severity: 'warning', file: 'extra.csv', message: 'no schema group named extra; ignored' },
            ],
          }}
        />,
      ),
    );
    expect(screen.getByRole('status').textContent).toContain('was not loaded');
    expect(screen.getByRole('status').textContent).toContain('1 error, 1 warning');
    const cells = () => [...screen.getAllByRole('row')[1]!.querySelectorAll('td')].map((td) => td.textContent);
    // Without the file at hand, the line of a CSV row follows from the format: the header is line 1.
    await waitFor(() => expect(cells()).toEqual(['error', 'sku_data.csv', 'sku_data', 'daily_picks', '7 (line 8)', 'not a number: "x"']));
  });
});

describe('ScenarioCard', () => {
  it('shows a running scenario with its progress, objective and a cancel action', () => {
    render(wrap(<ScenarioCard sid="main" scenario={scenario({ id: 'a', tag: 'run', status: 'PROCESSING', progress: 0.42, report: { objective: 1234.5, best_so_far: null, message: null, at: '' } })} />));
    expect(screen.getByTestId('status').textContent).toBe('PROCESSING');
    expect(screen.getByRole('progressbar', { name: 'Progress of run' }).getAttribute('aria-valuenow')).toBe('42');
    expect(screen.getByText('1,234.5')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel run' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Run run' })).toBeNull();
  });

  it('shows a failed run with its message and code, and a completed one with its KPIs', () => {
    render(wrap(<ScenarioCard sid="main" scenario={scenario({ id: 'f', tag: 'bad', status: 'FAILED', error: { message: 'no route found', code: 'ALGORITHM_ERROR' } })} />));
    expect(screen.getByTestId('failure').textContent).toContain('ALGORITHM_ERROR');
    expect(screen.getByTestId('failure').textContent).toContain('no route found');
    expect(screen.getByRole('button', { name: 'Reset bad' })).toBeTruthy();
    render(wrap(<ScenarioCard sid="main" scenario={scenario({ id: 'c', tag: 'done', status: 'COMPLETE', kpis: { Distance: kpi('Distance', 1500) } })} />));
    expect(screen.getByText(/^Distance/).textContent).toBe('Distance (lower is better)');
    expect(screen.getByText('1,500 m')).toBeTruthy();
  });
});

describe('ScenarioCard delete', () => {
  it('asks first, naming the scenario and that its run is cancelled, then deletes only on confirm', async () => {
    const calls: string[] = [];
    const api = createApi(new ApiConfig('/api/v1', null));
    api.deleteScenario = (sid: string, id: string) => {
      calls.push(`${sid}/${id}`);
      return Promise.resolve(undefined);
    };
    render(
      <ApiProvider api={api}>
        <QueryClientProvider client={new QueryClient()}>
          <ScenarioCard sid="main" scenario={scenario({ id: 's1', tag: 'busy-one', status: 'PROCESSING' })} />
        </QueryClientProvider>
      </ApiProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete busy-one' }));
    expect(screen.getByRole('dialog').textContent).toContain('Delete scenario busy-one (its run is cancelled)? This cannot be undone.');
    expect(calls).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Delete scenario' }));
    await expect.poll(() => calls).toEqual(['main/s1']);
  });
});
