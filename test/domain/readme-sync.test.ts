import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The lines of `text` strictly between the line containing `from` and the next containing `to`. */
function between(text: string, from: string, to: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.includes(from));
  const end = lines.findIndex((line, i) => i > start && line.includes(to));
  if (start < 0 || end < 0) throw new Error(`no '${from}' ... '${to}' section`);
  return lines.slice(start + 1, end);
}

describe("README's domain-module example", () => {
  // readme-example.test-d.ts compiles this code in the type tests; this keeps the README's copy identical.
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const typeTest = readFileSync(new URL('./readme-example.test-d.ts', import.meta.url), 'utf8');
  const section = between(readme, '## Writing a domain module', '## Deployment');
  const blocks = section.join('\n').split('```ts\n').slice(1).map((block) => block.slice(0, block.indexOf('```')).trimEnd().split('\n'));

  it('is the code the type test compiles', () => {
    const [domainBlock] = blocks;
    expect(domainBlock?.[0]).toBe("import { defineAlgorithm, defineDomain, defineKpi, defineSchemas, param, type DatasetOf } from 'scenarist';");
    expect(domainBlock?.slice(2)).toEqual(between(typeTest, '// README begins', '// README ends'));
  });

  it('runs its test helper as the type test does', () => {
    expect(blocks[1]?.[1]).toBe(between(typeTest, '// README testing begins', '// README testing ends')[0]?.trim());
  });
});
