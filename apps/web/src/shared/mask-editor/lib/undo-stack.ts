/**
 * An undo/redo history of operations: `done` is what the document is (in order), `undone` what redo
 * brings back (last undone at the end). Immutable: each function returns a new state.
 */
export interface UndoState<T> {
  readonly done: readonly T[];
  readonly undone: readonly T[];
}

/** A history holding `initial` as already done (nothing to redo). */
export function undoState<T>(initial: readonly T[] = []): UndoState<T> {
  return { done: initial, undone: [] };
}

/** Record a new operation; whatever could be redone is dropped. */
export function pushOp<T>(state: UndoState<T>, op: T): UndoState<T> {
  return { done: [...state.done, op], undone: [] };
}

/** Take back the last operation (no change when there is none). */
export function undo<T>(state: UndoState<T>): UndoState<T> {
  if (state.done.length === 0) return state;
  return { done: state.done.slice(0, -1), undone: [...state.undone, state.done[state.done.length - 1] as T] };
}

/** Do again the last undone operation (no change when there is none). */
export function redo<T>(state: UndoState<T>): UndoState<T> {
  if (state.undone.length === 0) return state;
  return { done: [...state.done, state.undone[state.undone.length - 1] as T], undone: state.undone.slice(0, -1) };
}

/** True when there is an operation to take back. */
export const canUndo = <T>(state: UndoState<T>): boolean => state.done.length > 0;
/** True when there is an undone operation to do again. */
export const canRedo = <T>(state: UndoState<T>): boolean => state.undone.length > 0;

/** The shortcut a key press asks for: Ctrl/⌘+Z undo, Ctrl/⌘+Shift+Z and Ctrl/⌘+Y redo, else null. */
export function undoShortcut(e: { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }): 'undo' | 'redo' | null {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return null;
  const key = e.key.toLowerCase();
  if (key === 'z') return e.shiftKey ? 'redo' : 'undo';
  if (key === 'y' && !e.shiftKey) return 'redo';
  return null;
}
