import { describe, expect, it } from 'vitest';
import { SseParser } from '../../src/client/events.js';

describe('the SSE parser of watchEvents', () => {
  it('assembles events split anywhere across chunks, with any line break', () => {
    const text = 'id: 7\nevent: scenario.created\ndata: {"id":7}\n\n: ping\n\nid: 8\r\nevent: scenario.completed\r\ndata: {"id":8,\r\ndata: "x":1}\r\n\r\nretry: 500\nid: 9\rdata: {}\r\r\n';
    for (const size of [1, 2, 3, 5, 8, 13, text.length]) {
      const parser = new SseParser();
      const events = [];
      for (let i = 0; i < text.length; i += size) events.push(...parser.push(text.slice(i, i + size)));
      expect(events, `chunks of ${size}`).toEqual([
        { id: '7', event: 'scenario.created', data: ['{"id":7}'] },
        { id: '8', event: 'scenario.completed', data: ['{"id":8,', '"x":1}'] },
        { id: '9', retry: 500, data: ['{}'] },
      ]);
    }
  });

  it('keeps an event without a terminating blank line pending', () => {
    const parser = new SseParser();
    expect(parser.push('id: 1\ndata: {}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ id: '1', data: ['{}'] }]);
  });
});
