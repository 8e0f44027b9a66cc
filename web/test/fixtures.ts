import type { ParameterDescriptor, Scenario } from '../src/api/types.ts';

/** One descriptor of each of the eight kinds, as the discovery route describes them. */
export const ALL_KINDS: ParameterDescriptor[] = [
  { name: 'count', type: 'integer', required: true, value: 10, default: 10, min: 1, max: 100 },
  { name: 'rate', type: 'float', required: false, value: 0.5, default: 0.5, min: 0 },
  { name: 'label', type: 'string', required: false, value: 'x', default: 'x' },
  { name: 'flag', type: 'boolean', required: false, value: true, default: true },
  { name: 'mode', type: 'enum', required: true, value: 'fast', default: 'fast', choices: ['fast', 'slow'] },
  { name: 'zones', type: 'multi_enum', required: false, value: ['A'], default: ['A'], choices: ['A', 'B', 'C'] },
  { name: 'start', type: 'time', required: false, value: '08:00', default: '08:00' },
  { name: 'window', type: 'interval', required: false, value: null },
];

export function scenario(overrides: Partial<Scenario> & Pick<Scenario, 'id' | 'tag'>): Scenario {
  return {
    input_data_id: 'example',
    algorithm: { name: 'Greedy Slotting', parameters: [] },
    kpis: {},
    status: 'CREATED',
    result: null,
    data_parameters: {},
    progress: 0,
    created_at: '2026-11-23T08:00:00.000Z',
    started_at: null,
    finished_at: null,
    error: null,
    parent_id: null,
    ...overrides,
  };
}

export function kpi(name: string, value: number | null, betterWhen: 'HIGHER' | 'LOWER' | 'AT_LEAST' | 'AT_MOST' = 'LOWER') {
  return { name, value, unit: 'm', better_when: betterWhen, threshold: null };
}
