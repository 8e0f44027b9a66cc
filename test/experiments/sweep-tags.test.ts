import { describe, expect, it } from 'vitest';
import { listAxes } from '../../src/experiments/grid.js';
import { sweepTags } from '../../src/experiments/sweep-tags.js';

const axesOf = (axes: Record<string, readonly unknown[]>) => listAxes(axes, () => false);

describe('sweepTags', () => {
  it('names each scenario by its axis values, and its repeat when there are repeats', () => {
    const axes = axesOf({ 'algo_params.depot_x': [0, 6], 'data_params.zone': ['A'], dataset_key: ['sample'] });
    const combos = [
      { 'algo_params.depot_x': 0, 'data_params.zone': 'A', dataset_key: 'sample' },
      { 'algo_params.depot_x': 6, 'data_params.zone': 'A', dataset_key: 'sample' },
    ];
    expect(sweepTags('depot sweep', axes, combos, 2)).toEqual([
      'depot sweep/depot_x=0 · zone=A · dataset=sample · rep 1',
      'depot sweep/depot_x=0 · zone=A · dataset=sample · rep 2',
      'depot sweep/depot_x=6 · zone=A · dataset=sample · rep 1',
      'depot sweep/depot_x=6 · zone=A · dataset=sample · rep 2',
    ]);
    expect(sweepTags('one', axes.slice(0, 1), combos.slice(0, 1), 1)).toEqual(['one/depot_x=0']);
  });

  it('shows numbers without binary noise and lists as JSON', () => {
    const axes = axesOf({ 'algo_params.rate': [0.1 + 0.2], 'algo_params.zones': [['A', 'B']] });
    expect(sweepTags('s', axes, [{ 'algo_params.rate': 0.1 + 0.2, 'algo_params.zones': ['A', 'B'] }], 1)).toEqual(['s/rate=0.3 · zones=["A","B"]']);
  });

  it('keeps tags unique and within 200 characters, numbering those that would clash or run long', () => {
    const long = 'x'.repeat(60);
    const axes = axesOf({ 'algo_params.note': [`${long}1`, `${long}2`], 'algo_params.rate': [1e-13, 2e-13] });
    const combos = [
      { 'algo_params.note': `${long}1`, 'algo_params.rate': 1e-13 },
      { 'algo_params.note': `${long}2`, 'algo_params.rate': 1e-13 },
    ];
    // Both notes are cut to the same 40 characters: the second tag is numbered.
    const tags = sweepTags('n', axes, combos, 1);
    expect(new Set(tags).size).toBe(2);
    expect(tags[1]).toMatch(/ #2$/);
    const name = 'y'.repeat(195);
    const longTags = sweepTags(name, axes, combos, 1);
    expect(longTags.every((t) => t.length <= 200)).toBe(true);
    expect(longTags.map((t) => t.slice(-3))).toEqual([' #1', ' #2']);
    expect(new Set(longTags).size).toBe(2);
  });

  it('numbers the scenarios of an experiment without axes', () => {
    expect(sweepTags('plain', [], [{}], 3)).toEqual(['plain/rep 1', 'plain/rep 2', 'plain/rep 3']);
    expect(sweepTags('plain', [], [{}], 1)).toEqual(['plain/1']);
  });
});
