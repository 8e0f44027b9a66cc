import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ParamFields } from '../src/components/ParamForm.tsx';
import { collectValues, type FormValue } from '../src/params/form-values.ts';
import { ALL_KINDS } from './fixtures.ts';

function Harness({ errors = {}, onValues }: { errors?: Record<string, string>; onValues: (v: Record<string, unknown>) => void }) {
  const [values, setValues] = useState<Record<string, FormValue>>({});
  onValues(collectValues(ALL_KINDS, values).values);
  return <ParamFields descriptors={ALL_KINDS} values={values} errors={errors} idPrefix="t" onChange={(n, v) => setValues((o) => ({ ...o, [n]: v }))} />;
}

describe('the generated parameter form', () => {
  it('renders a fitting control for each of the eight kinds, with bounds, choices and defaults', () => {
    render(<Harness onValues={() => {}} />);
    const count = screen.getByLabelText<HTMLInputElement>('count');
    expect([count.type, count.min, count.max, count.value, count.step]).toEqual(['number', '1', '100', '10', '1']);
    expect(screen.getByLabelText<HTMLInputElement>('rate').step).toBe('any');
    expect(screen.getByLabelText<HTMLInputElement>('label').value).toBe('x');
    expect(screen.getByLabelText<HTMLInputElement>('flag').checked).toBe(true);
    const mode = screen.getByLabelText<HTMLSelectElement>('mode');
    expect([...mode.options].map((o) => o.value)).toEqual(['fast', 'slow']);
    expect(screen.getByRole('group', { name: 'zones' })).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'A' }).checked).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('start').value).toBe('08:00');
    expect(screen.getByLabelText('from')).toBeTruthy();
    expect(screen.getByLabelText('to')).toBeTruthy();
    expect(screen.getByText(/integer, 1 to 100, default 10/)).toBeTruthy();
  });

  it('collects edited values of every kind as the API expects them', () => {
    let latest: Record<string, unknown> = {};
    render(<Harness onValues={(v) => (latest = v)} />);
    fireEvent.change(screen.getByLabelText('count'), { target: { value: '42' } });
    fireEvent.change(screen.getByLabelText('rate'), { target: { value: '1.25' } });
    fireEvent.change(screen.getByLabelText('label'), { target: { value: 'hello' } });
    fireEvent.click(screen.getByLabelText('flag'));
    fireEvent.change(screen.getByLabelText('mode'), { target: { value: 'slow' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'C' }));
    fireEvent.change(screen.getByLabelText('start'), { target: { value: '09:30:15' } });
    fireEvent.change(screen.getByLabelText('from'), { target: { value: '2026-01-01' } });
    fireEvent.change(screen.getByLabelText('to'), { target: { value: '2026-02-01' } });
    expect(latest).toEqual({
      count: 42,
      rate: 1.25,
      label: 'hello',
      flag: false,
      mode: 'slow',
      zones: ['A', 'C'],
      start: '09:30:15',
      window: ['2026-01-01', '2026-02-01'],
    });
  });

  it('shows a server error at its field and marks the control invalid', () => {
    render(<Harness errors={{ count: 'must be <= 100, got 1000' }} onValues={() => {}} />);
    const count = screen.getByLabelText('count');
    expect(count.getAttribute('aria-invalid')).toBe('true');
    const error = document.getElementById(count.getAttribute('aria-describedby')!.split(' ')[1]!)!;
    expect(error.textContent).toBe('must be <= 100, got 1000');
  });
});
