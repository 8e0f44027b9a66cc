import { describe, expect, it } from 'vitest';
import { InsightBuffer } from '../../src/executor/run/insight-buffer.js';
import { InsightRecorder, type InsightBatch } from '../../src/executor/run/insight-recorder.js';
import { seededRandom } from '../../src/executor/run/seeded-random.js';
import { thrownError } from '../../src/executor/run/thrown-error.js';

describe('the worker side of run insight', () => {
  const recorder = () => {
    const batches: InsightBatch[] = [];
    return { batches, recorder: new InsightRecorder((batch) => batches.push(batch)) };
  };

  it('keeps finite numbers, cuts a long message, drops what is not a report, and sends the latest at the end', () => {
    const { batches, recorder: r } = recorder();
    r.report({ objective: 3, bestSoFar: 2, message: 'm'.repeat(600) });
    expect(batches).toHaveLength(1); // the first call sends at once
    expect(batches[0]!.report).toMatchObject({ objective: 3, best_so_far: 2, message: 'm'.repeat(500) });
    r.report({ objective: Number.POSITIVE_INFINITY, bestSoFar: '4' as unknown as number });
    r.report(null as never);
    r.finish();
    expect(batches.at(-1)).toMatchObject({ final: true, lines: [] });
    // Sent at once or with the final batch, depending on how long the calls took.
    expect(batches.filter((b) => b.report !== undefined).at(-1)!.report).toMatchObject({ objective: null, best_so_far: null, message: null });
    expect(batches.filter((b) => b.report !== undefined)).toHaveLength(2);
    r.report({ objective: 1 });
    expect(batches.at(-1)!.final).toBe(true); // nothing after the final batch
  });

  it('numbers lines, cuts long messages, keeps serialisable fields, and holds at most 1,000 lines between batches', () => {
    const { batches, recorder: r } = recorder();
    r.log('info', 'first', { a: 1 });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (let i = 0; i < 5_000; i++) r.log('warn', 'x'.repeat(2_500), i === 0 ? cyclic : undefined);
    r.finish();
    const lines = batches.flatMap((b) => b.lines);
    expect(lines[0]).toMatchObject({ n: 1, level: 'info', message: 'first', fieldsJson: '{"a":1}' });
    const last = batches.at(-1)!;
    expect(last.final).toBe(true);
    expect(last.lines.length).toBeLessThanOrEqual(1_000);
    expect(last.lines.at(-1)).toMatchObject({ n: 5_001, level: 'warn' });
    expect(last.lines.at(-1)!.message).toHaveLength(2_000);
    expect(lines.find((l) => l.n === 2)?.fieldsJson).toBeUndefined();
  });
});

describe('the executor side of run insight', () => {
  const line = (n: number) => ({ n, at: '2026-01-01T00:00:00.000Z', level: 'info' as const, message: `line ${n}` });

  it('hands over the latest report and new lines once, the first lines marked fresh, and takes a failed write back', () => {
    const buffer = new InsightBuffer();
    expect(buffer.take()).toBeUndefined();
    const report = { objective: 1, best_so_far: 1, message: null, at: '2026-01-01T00:00:00.000Z' };
    buffer.receive({ report, lines: [line(1), line(2)], final: false });
    const first = buffer.take()!;
    expect(first).toEqual({ reportJson: JSON.stringify(report), lines: { rows: [line(1), line(2)], fresh: true, count: 2 } });
    expect(buffer.take()).toBeUndefined();
    buffer.receive({ lines: [line(3)], final: false });
    const second = buffer.take()!;
    expect(second).toEqual({ lines: { rows: [line(3)], fresh: false, count: 3 } });
    buffer.putBack(second);
    buffer.receive({ lines: [line(4)], final: true });
    expect(buffer.take()).toEqual({ lines: { rows: [line(3), line(4)], fresh: false, count: 4 } });
    expect(buffer.report).toEqual(report);
  });

  it('lets a later write wait for the one in flight', async () => {
    const buffer = new InsightBuffer();
    const order: string[] = [];
    let finish: () => void = () => {};
    const first = buffer.writing(new Promise<void>((resolve) => (finish = resolve)).then(() => order.push('first')));
    const second = buffer.idle().then(() => order.push('second'));
    finish();
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
    await buffer.writing(Promise.reject(new Error('lost'))).catch(() => undefined);
    await buffer.idle(); // a failed write does not block the next one
  });

  it('keeps only the newest 1,000 unwritten lines', () => {
    const buffer = new InsightBuffer();
    buffer.receive({ lines: Array.from({ length: 1_500 }, (_, i) => line(i + 1)), final: false });
    const { lines } = buffer.take()!;
    expect(lines!.rows).toHaveLength(1_000);
    expect(lines!.rows[0]!.n).toBe(501);
    expect(lines!.count).toBe(1_500);
  });
});

describe('ctx.random', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    const draw = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 20 }, () => random.next());
    };
    expect(draw(123)).toEqual(draw(123));
    expect(draw(123)).not.toEqual(draw(124));
    for (const x of draw(5)) expect(x >= 0 && x < 1).toBe(true);
    expect(seededRandom(9).seed).toBe(9);
  });

  it('draws integers in [lo, hi], both included, and refuses a bad range', () => {
    const random = seededRandom(1);
    const seen = new Set<number>();
    for (let i = 0; i < 2_000; i++) seen.add(random.int(-2, 2));
    expect([...seen].sort()).toEqual([-1, -2, 0, 1, 2].sort());
    expect(() => random.int(3, 1)).toThrow(RangeError);
    expect(() => random.int(0.5, 2)).toThrow(RangeError);
  });
});

describe('the error a domain threw', () => {
  class StockMissing extends Error {}

  it('names its class and keeps only the frames of the domain directory when there are any', () => {
    const err = new StockMissing('no stock');
    err.stack = [
      'Error: no stock',
      '    at pick (/srv/domain/algorithms/pick.ts:10:5)',
      '    at runScenario (/srv/app/dist/executor/run/run-scenario.js:40:3)',
      '    at helper (/srv/domain/node_modules/lib/index.js:1:1)',
      '    at file:///srv/domain/index.ts:3:1',
    ].join('\n');
    expect(thrownError(err, { domainDir: '/srv/domain' })).toEqual({
      class: 'StockMissing',
      stack: ['at pick (/srv/domain/algorithms/pick.ts:10:5)', 'at file:///srv/domain/index.ts:3:1'],
    });
    expect(thrownError(err, { domainDir: '/elsewhere' })?.stack).toHaveLength(4);
    expect(thrownError(err, {})?.stack).toHaveLength(4);
  });

  it("keeps the frames of the file a domain was bundled into, not those of the bundle's other chunks", () => {
    const err = new StockMissing('no stock');
    err.stack = [
      'Error: no stock',
      '    at pick (file:///srv/app/dist/bundle/example-domain.js:310:9)',
      '    at Check (file:///srv/app/dist/bundle/chunk-TYPEBOX.js:12:3)',
      '    at runScenario (/srv/app/dist/src/executor/run/run-scenario.js:40:3)',
    ].join('\n');
    expect(thrownError(err, { domainDir: '/srv/app/dist/examples/warehouse', domainBundle: '/srv/app/dist/bundle/example-domain.js' })?.stack).toEqual([
      'at pick (file:///srv/app/dist/bundle/example-domain.js:310:9)',
    ]);
  });

  it('has nothing to say of a thrown non-error', () => {
    expect(thrownError('a string', { domainDir: '/srv/domain' })).toBeUndefined();
  });
});
