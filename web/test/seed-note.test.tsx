import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ExperimentForm } from '../src/experiments/ExperimentForm.tsx';
import { renderWithApi } from './render-with-api.tsx';

const BASE = '/api/v1/sessions/main';

/** The form over one algorithm, `Annealing`, whose seed parameter is `seed` (or none). */
function renderForm(seedParameter: string | null) {
  return renderWithApi(<ExperimentForm sid="main" onCreated={() => undefined} />, {
    [`GET ${BASE}/data`]: () => ({ body: { items: [{ key: 'sample', created_at: '2026-11-23T08:00:00.000Z' }], next_cursor: null } }),
    [`GET ${BASE}/algorithms`]: () => ({ body: { items: [{ name: 'Annealing', description: null, tags: [], seed_parameter: seedParameter }] } }),
    [`GET ${BASE}/algorithms/Annealing/parameters`]: () => ({
      body: { name: 'Annealing', parameters: [{ name: 'seed', type: 'integer', required: false, label: 'Seed', value: null, min: 0 }] },
    }),
  });
}

describe("the experiment form's note on seeds", () => {
  it('says that repeats differ while the seed parameter stays unset, and warns when it is varied with repeats', async () => {
    renderForm('seed');
    const vary = await screen.findByRole('checkbox', { name: /Vary Seed/ });
    expect(screen.queryByTestId('seed-note')).toBeNull();
    fireEvent.change(screen.getByLabelText('Repeats'), { target: { value: '3' } });
    expect((await screen.findByTestId('seed-note')).textContent).toMatch(/Each repeat runs from its own seed \(seed stays unset\), so the repeats differ/);
    fireEvent.click(vary);
    expect(screen.getByTestId('seed-note').textContent).toMatch(/Varying seed with 3 repeats: the repeats of each value would run from the same seed.*Use 1 repeat/);
    fireEvent.change(screen.getByLabelText('Repeats'), { target: { value: '1' } });
    expect(screen.queryByTestId('seed-note')).toBeNull();
  });

  it('warns when the seed parameter is given a fixed value with repeats, which the server would refuse', async () => {
    renderForm('seed');
    fireEvent.change(await screen.findByLabelText('Repeats'), { target: { value: '2' } });
    const fixed = within(await screen.findByTestId('fixed-algo-params'));
    fireEvent.change(await fixed.findByLabelText(/^Seed/), { target: { value: '7' } });
    expect(screen.getByTestId('seed-note').textContent).toMatch(/seed has a fixed value with 2 repeats: every repeat would run from that seed.*leave seed empty/);
    fireEvent.change(fixed.getByLabelText(/^Seed/), { target: { value: '' } });
    expect(screen.getByTestId('seed-note').textContent).toMatch(/Each repeat runs from its own seed/);
  });

  it('says nothing for an algorithm without a seed parameter', async () => {
    renderForm(null);
    await screen.findByRole('checkbox', { name: /Vary Seed/ });
    fireEvent.change(screen.getByLabelText('Repeats'), { target: { value: '3' } });
    expect(screen.queryByTestId('seed-note')).toBeNull();
  });
});
