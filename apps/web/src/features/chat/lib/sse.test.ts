import { describe, expect, it } from 'vitest';
import { createSseParser } from './sse';

describe('SSE parser', () => {
  it('returns events only when complete, across arbitrary chunk boundaries', () => {
    const p = createSseParser();
    expect(p.push('event: delta\nda')).toEqual([]);
    expect(p.push('ta: {"text":"Hel"}\n')).toEqual([]);
    expect(p.push('\nevent: delta\ndata: {"text":"lo"}\n\n: ping\n\nevent: done\r\ndata: {}\r\n\r\n')).toEqual([
      { event: 'delta', data: '{"text":"Hel"}' },
      { event: 'delta', data: '{"text":"lo"}' },
      { event: 'done', data: '{}' },
    ]);
  });

  it('joins multi-line data and defaults the event name', () => {
    expect(createSseParser().push('data: a\ndata: b\n\n')).toEqual([{ event: 'message', data: 'a\nb' }]);
  });
});
