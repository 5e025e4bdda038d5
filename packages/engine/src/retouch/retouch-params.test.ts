import { describe, expect, it } from 'vitest';
import { filterKindOf, RETOUCH_PARAMS, retouchParamsFor } from './retouch-params';

describe('retouch parameter sets and filter selection (spec 001 §5)', () => {
  it('has nine distinct, named sets and rejects other indices', () => {
    expect(RETOUCH_PARAMS).toHaveLength(9);
    expect(new Set(RETOUCH_PARAMS.map((p) => JSON.stringify(p))).size).toBe(9);
    expect(retouchParamsFor(2).name).toBe('basic');
    expect(retouchParamsFor(1).glow).toBeGreaterThan(0);
    expect(retouchParamsFor(7).matte).toBeGreaterThan(0);
    for (const i of [0, 4, 7]) expect(retouchParamsFor(i).lipTint.amount).toBeGreaterThan(0);
    expect(retouchParamsFor(8).grade.temperature).toBeLessThan(0);
    expect(() => retouchParamsFor(9)).toThrow(/^INVALID_OPTIONS/);
    expect(() => retouchParamsFor(1.5)).toThrow(/^INVALID_OPTIONS/);
  });

  it('maps the page payload to a filter', () => {
    expect(filterKindOf(0, '', 0.01)).toBe('none');
    expect(filterKindOf(0, '', 0.5)).toBe('none');
    expect(filterKindOf(0, 'studio filter', 0.5)).toBe('studio');
    expect(filterKindOf(1, 'asle filter', 0.5)).toBe('ppoyong');
    expect(filterKindOf(1, 'asle filter', 0)).toBe('none');
  });
});
