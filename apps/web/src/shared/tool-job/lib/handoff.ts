/**
 * Handoff between tools (001 §2, 002 §2): a tool leaves one pending entry in local storage — a target
 * tool, a stored image URL and, for image generation, the slot it fills — and the target's page takes
 * it on arrival (consumed once). Declared once here for every tool.
 */
export const HANDOFF_STORAGE_KEY = 'pendingHandoff';

/** A pending handoff: the image for the target tool and the role it plays there (default 'reference'). */
export interface Handoff {
  imageUrl: string;
  role: string;
}

/**
 * Take the pending handoff when it is for one of `targets` (e.g. ['upscale'], or ['image-generation',
 * 'consistency']); the entry is removed. Null when there is none, it is for another tool, or storage is off.
 */
export function takeHandoff(targets: readonly string[]): Handoff | null {
  try {
    const raw = window.localStorage.getItem(HANDOFF_STORAGE_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as { target?: unknown; imageUrl?: unknown; role?: unknown };
    if (typeof value.target !== 'string' || !targets.includes(value.target) || typeof value.imageUrl !== 'string' || !value.imageUrl) return null;
    window.localStorage.removeItem(HANDOFF_STORAGE_KEY);
    return { imageUrl: value.imageUrl, role: typeof value.role === 'string' ? value.role : 'reference' };
  } catch {
    return null;
  }
}

/**
 * Leave an image for another tool (e.g. send-to-upscale). Best effort: false when storage is off.
 * @param target the receiving tool ('upscale', 'image-generation')
 */
export function giveHandoff(target: string, imageUrl: string, role?: string): boolean {
  try {
    window.localStorage.setItem(HANDOFF_STORAGE_KEY, JSON.stringify({ target, imageUrl, ...(role ? { role } : {}) }));
    return true;
  } catch {
    return false;
  }
}
