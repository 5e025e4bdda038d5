import { describe, expect, it } from 'vitest';
import { imageTag, insertOnOwnLine, isOwnNoticeImage } from './content';
import { parseNoticeId } from './errors';

describe('notice content helpers', () => {
  it('accepts only images of our own notice-file route', () => {
    expect(isOwnNoticeImage('/api/notices/files/12')).toBe(true);
    for (const bad of ['https://evil.example/x.png', '//evil.example/api/notices/files/1', '/api/notices/files/1?x', 'javascript:alert(1)', 'data:image/png;base64,AA', '/api/notices/files/', null]) {
      expect(isOwnNoticeImage(bad), String(bad)).toBe(false);
    }
  });

  it('writes the inserted image tag with an escaped alt from the file name', () => {
    expect(imageTag('/api/notices/files/3', 'photo.jpg')).toBe('<img src="/api/notices/files/3" alt="photo">');
    expect(imageTag('/api/notices/files/3', '"><script>.png')).toBe('<img src="/api/notices/files/3" alt="&quot;&gt;&lt;script&gt;">');
  });

  it('inserts on a line of its own at the caret, replacing a selection', () => {
    expect(insertOnOwnLine('', 0, 0, 'X')).toEqual({ value: 'X\n', caret: 2 });
    expect(insertOnOwnLine('ab', 1, 1, 'X')).toEqual({ value: 'a\nX\nb', caret: 4 });
    expect(insertOnOwnLine('a\nb', 2, 2, 'X')).toEqual({ value: 'a\nX\nb', caret: 4 });
    expect(insertOnOwnLine('a\n\nb', 2, 2, 'X')).toEqual({ value: 'a\nX\nb', caret: 3 });
    expect(insertOnOwnLine('hello world', 6, 11, 'X')).toEqual({ value: 'hello \nX\n', caret: 9 });
    expect(insertOnOwnLine('abc', 99, 99, 'X')).toEqual({ value: 'abc\nX\n', caret: 6 });
  });

  it('reads a notice id from the route only as a positive whole number', () => {
    expect(parseNoticeId('7')).toBe(7);
    for (const bad of [undefined, '', '0', '-1', '1e3', 'abc', '99999999999']) expect(parseNoticeId(bad), String(bad)).toBeNull();
  });
});
