import { describe, expect, it } from 'vitest';
import { BaseSequencer, type TestSpecification, type Vitest } from 'vitest/node';
import { endToEndFirst, isEndToEnd } from './end-to-end-first-sequencer.js';

const EndToEndFirstSequencer = endToEndFirst(BaseSequencer);

const ROOT = '/repo';

/** The slice of vitest's context its base sequencer reads: the root, and what its cache knows of each file. */
function sequencerKnowing(durations: Record<string, number>, sizes: Record<string, number>): BaseSequencer {
  const key = (k: string) => k.slice(k.indexOf(':') + 1);
  const cache = {
    getFileTestResults: (k: string) => (key(k) in durations ? { duration: durations[key(k)], failed: false } : undefined),
    getFileStats: (k: string) => (key(k) in sizes ? { size: sizes[key(k)] } : undefined),
  };
  return new EndToEndFirstSequencer({ config: { root: ROOT }, cache } as unknown as Vitest);
}

const spec = (file: string) => ({ project: { name: '' }, moduleId: `${ROOT}/${file}` }) as unknown as TestSpecification;
const names = (specs: TestSpecification[]) => specs.map((s) => s.moduleId.slice(ROOT.length + 1));

describe('EndToEndFirstSequencer', () => {
  it('knows the end-to-end files by folder or by name', () => {
    expect(isEndToEnd('/repo/test/e2e/cli.e2e.test.ts')).toBe(true);
    expect(isEndToEnd('/repo/test/events/crash-outbox.e2e.test.ts')).toBe(true);
    expect(isEndToEnd('/repo/web/e2e/views.test.ts')).toBe(true);
    expect(isEndToEnd('/repo/web/test/views.test.tsx')).toBe(false);
    expect(isEndToEnd('/repo/test/http/e2e-like.test.ts')).toBe(false);
  });

  it('starts the end-to-end files first in a fresh clone, where vitest would order by size alone', async () => {
    const files = ['test/http/big.test.ts', 'test/e2e/small.e2e.test.ts', 'test/http/small.test.ts', 'test/events/outbox.e2e.test.ts'];
    const sizes = { 'test/http/big.test.ts': 9000, 'test/e2e/small.e2e.test.ts': 1000, 'test/http/small.test.ts': 500, 'test/events/outbox.e2e.test.ts': 4000 };
    const ordered = await sequencerKnowing({}, sizes).sort(files.map(spec));
    expect(names(ordered)).toEqual(['test/events/outbox.e2e.test.ts', 'test/e2e/small.e2e.test.ts', 'test/http/big.test.ts', 'test/http/small.test.ts']);
  });

  it("keeps vitest's order by the last run's durations within each part", async () => {
    const durations = { 'web/e2e/a.test.ts': 10, 'web/e2e/b.test.ts': 90, 'web/test/c.test.tsx': 50, 'web/test/d.test.tsx': 5 };
    const ordered = await sequencerKnowing(durations, {}).sort(Object.keys(durations).map(spec));
    expect(names(ordered)).toEqual(['web/e2e/b.test.ts', 'web/e2e/a.test.ts', 'web/test/c.test.tsx', 'web/test/d.test.tsx']);
  });
});
