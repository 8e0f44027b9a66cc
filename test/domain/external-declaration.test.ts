import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { defineDomain, defineExternalAlgorithm, defineResultType, defineSchemas, type ExternalCommand } from '../../src/domain/define.js';
import { DomainRegistry } from '../../src/domain/registry.js';

/** A mistake in an external algorithm's declaration stops the domain's load with a message naming it. */

const schemas = defineSchemas({ items: { tables: { items: { columns: { name: { type: 'string' } } } } } });
const typed = defineResultType('typed', Type.Object({ n: Type.Number() }));

function load(external: unknown, result: unknown = typed): DomainRegistry {
  const algorithm = defineExternalAlgorithm({ name: 'Solve', parameters: {}, result: result as typeof typed, external: external as ExternalCommand });
  return new DomainRegistry(defineDomain({ name: 'd', schemas, algorithms: [algorithm], kpis: [] }));
}

describe('an external algorithm declaration', () => {
  it('loads with an argv, a cwd and string variables', () => {
    expect(load({ command: ['python3', './solve.py'], cwd: 'models', env: { A: '1' } }).algorithmNames).toEqual(['Solve']);
  });

  it.each([
    [{ command: [] }, /needs a command: a non-empty array of strings/],
    [{ command: 'python3 solve.py' }, /needs a command: a non-empty array of strings/],
    [{ command: ['python3', 3] }, /needs a command: a non-empty array of strings/],
    [{ command: [''] }, /has an empty program name/],
    [{ command: ['python3'], cwd: '' }, /has a cwd that is not a non-empty string/],
    [{ command: ['python3'], env: { A: 1 } }, /has an env that is not an object of strings/],
  ])('refuses %j', (external, message) => {
    expect(() => load(external)).toThrow(message);
  });

  it('refuses a result type without a schema: its output could not be checked', () => {
    expect(() => load({ command: ['python3'] }, defineResultType<{ n: number }>('loose'))).toThrow(
      'domain: external algorithm "Solve" returns result type "loose", which has no schema; declare it with defineResultType("loose", schema) so the program\'s output can be checked',
    );
    expect(() => load({ command: ['python3'] }, null)).toThrow(/declares no result type/);
  });
});
