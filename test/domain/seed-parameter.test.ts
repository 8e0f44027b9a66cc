import { describe, expect, it } from 'vitest';
import { defineAlgorithm, defineDomain } from '../../src/domain/define.js';
import { DomainRegistry } from '../../src/domain/registry.js';
import type { ParamDecls } from '../../src/params/kinds.js';

/** A registry of one algorithm with `parameters` and `seedParameter`, as a JavaScript module could declare it (unchecked by the compiler). */
function registryOf(parameters: ParamDecls, seedParameter: unknown): DomainRegistry {
  const algorithm = defineAlgorithm({ name: 'Search', parameters, seedParameter: seedParameter as string, run: () => 1 });
  return new DomainRegistry(defineDomain({ name: 'seeds', schemas: {}, algorithms: [algorithm], kpis: [] }));
}

describe("an algorithm's seedParameter", () => {
  it('is accepted on an integer parameter without a default that is not required', () => {
    expect(registryOf({ seed: { kind: 'integer', min: 0 } }, 'seed').algorithm('Search')?.seedParameter).toBe('seed');
  });

  it.each([
    ['names no parameter', { iterations: { kind: 'integer' } }, 'seed', /"seed", which is not one of its parameters \(iterations\)/],
    ['names a parameter of another kind', { seed: { kind: 'string' } }, 'seed', /which is of kind string; a seed parameter is an integer/],
    ['names a parameter with a default', { seed: { kind: 'integer', default: 42 } }, 'seed', /which is given a default; a seed parameter must be able to stay unset/],
    ['names a required parameter', { seed: { kind: 'integer', required: true } }, 'seed', /which is required; a seed parameter must be able to stay unset/],
    ['is not a string', { seed: { kind: 'integer' } }, 7, /has seedParameter 7, which is not one of its parameters/],
  ] as const)('stops the load when it %s', (_what, parameters, seedParameter, message) => {
    expect(() => registryOf(parameters as ParamDecls, seedParameter)).toThrow(message);
  });
});
