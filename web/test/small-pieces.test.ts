import { QueryClient } from '@tanstack/react-query';
import { toCsv } from 'scenarist/client';
import { describe, expect, it } from 'vitest';
import { apiBaseFrom } from '../src/api/base.ts';
import { ApiError } from '../src/api/http.ts';
import { keys } from '../src/api/keys.ts';
import { applyEvent } from '../src/api/live.ts';
import type { Scenario } from '../src/api/types.ts';
import { formatDelta, formatRelative } from '../src/format.ts';
import { scenario } from './fixtures.ts';

describe('API base from where the UI is mounted', () => {
  it('adds the prefix at the root mount and nothing under the prefix, keeping a proxy path', () => {
    expect(apiBaseFrom('/ui/', '/api/v1')).toBe('/api/v1');
    expect(apiBaseFrom('/api/v1/ui/', '')).toBe('/api/v1');
    expect(apiBaseFrom('/team-a/ui/', '/api/v1')).toBe('/team-a/api/v1');
    expect(apiBaseFrom('/', '__SCENARIST_API__')).toBe('/api/v1');
  });
});

describe('live updates', () => {
  it('writes status and progress of an event into the cached list at once', () => {
    const client = new QueryClient();
    client.setQueryData<Scenario[]>(keys.scenarios('main'), [scenario({ id: 's1', tag: 'a', status: 'QUEUED' }), scenario({ id: 's2', tag: 'b' })]);
    applyEvent(client, 'main', { id: 7, type: 'scenario.progress', session_id: 'x', at: '', scenario_id: 's1', status: 'PROCESSING', progress: 0.4 });
    const list = client.getQueryData<Scenario[]>(keys.scenarios('main'))!;
    expect(list.map((s) => [s.status, s.progress])).toEqual([
      ['PROCESSING', 0.4],
      ['CREATED', 0],
    ]);
  });
});

describe('small helpers', () => {
  it('writes RFC 4180 CSV', () => {
    expect(toCsv(['a', 'b'], [['x,y', 'say "hi"'], [1, null]])).toBe('a,b\r\n"x,y","say ""hi"""\r\n1,\r\n');
  });

  it('formats deltas with their sign', () => {
    expect([formatDelta(-50), formatDelta(0), formatDelta(1234.567), formatDelta(null)]).toEqual(['−50', '±0', '+1,234.57', '—']);
    // One minus sign everywhere: U+2212, as in the deltas.
    expect(formatRelative(-0.25)).toBe('−25%');
  });

  it('tells a missing route from a missing resource', () => {
    expect(new ApiError(404, 'no route GET /api/v1/sessions/main/compare', 'ROUTE_NOT_FOUND', []).isMissingRoute).toBe(true);
    expect(new ApiError(404, "scenario 'x' not found", 'SCENARIO_NOT_FOUND', []).isMissingRoute).toBe(false);
    // The code decides, never the text.
    expect(new ApiError(404, 'no route GET /x', 'SESSION_NOT_FOUND', []).isMissingRoute).toBe(false);
  });
});
