/**
 * An incremental reader of a Server-Sent Events body (the chat's streamed answer, issue 15): feed it text
 * as it arrives; it returns the complete events (`event:` name, `data:` lines joined) and keeps the rest.
 * Comment lines (`: ping`) and unknown fields are ignored.
 */
export interface SseEvent {
  event: string;
  data: string;
}

export function createSseParser(): { push(text: string): SseEvent[] } {
  let buffer = '';
  return {
    push(text: string): SseEvent[] {
      buffer += text.replace(/\r\n?/g, '\n');
      const out: SseEvent[] = [];
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) continue;
          const i = line.indexOf(':');
          const field = i < 0 ? line : line.slice(0, i);
          const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
          if (field === 'event') event = value;
          else if (field === 'data') data.push(value);
        }
        if (data.length) out.push({ event, data: data.join('\n') });
      }
      return out;
    },
  };
}
