/**
 * Handoff from another tool (001 §2): a pending entry in local storage with target 'upscale' and an
 * imageUrl becomes the workspace's input image. The entry is consumed once.
 */
export const HANDOFF_STORAGE_KEY = 'pendingHandoff';

export function takeUpscaleHandoff(): string | null {
  try {
    const raw = window.localStorage.getItem(HANDOFF_STORAGE_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as { target?: unknown; imageUrl?: unknown };
    if (value.target !== 'upscale' || typeof value.imageUrl !== 'string' || !value.imageUrl) return null;
    window.localStorage.removeItem(HANDOFF_STORAGE_KEY);
    return value.imageUrl;
  } catch {
    return null;
  }
}
