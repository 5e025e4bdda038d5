import { describe, expect, it } from 'vitest';
import { canRedo, canUndo, pushOp, redo, undo, undoShortcut, undoState } from './undo-stack';

describe('undo stack', () => {
  it('undoes and redoes in order, and a new operation drops the redo branch', () => {
    let s = undoState<string>();
    expect(canUndo(s)).toBe(false);
    s = pushOp(pushOp(pushOp(s, 'a'), 'b'), 'c');
    s = undo(undo(s));
    expect(s.done).toEqual(['a']);
    expect(canRedo(s)).toBe(true);
    s = redo(s);
    expect(s.done).toEqual(['a', 'b']);
    s = pushOp(s, 'd');
    expect(s).toEqual({ done: ['a', 'b', 'd'], undone: [] });
    expect(redo(s)).toBe(s);
    expect(undo(undoState())).toEqual(undoState());
  });
  it('starts from operations already done (a mask saved earlier can be edited and undone)', () => {
    const s = undoState(['x', 'y']);
    expect(canUndo(s)).toBe(true);
    expect(undo(s).done).toEqual(['x']);
  });
  it('reads Ctrl+Z as undo, Ctrl+Shift+Z and Ctrl+Y as redo (⌘ too)', () => {
    const k = (key: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) =>
      undoShortcut({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });
    expect(k('z', { ctrlKey: true })).toBe('undo');
    expect(k('Z', { ctrlKey: true, shiftKey: true })).toBe('redo');
    expect(k('y', { ctrlKey: true })).toBe('redo');
    expect(k('z', { metaKey: true })).toBe('undo');
    expect(k('z')).toBeNull();
    expect(k('z', { ctrlKey: true, altKey: true })).toBeNull();
    expect(k('x', { ctrlKey: true })).toBeNull();
  });
});
