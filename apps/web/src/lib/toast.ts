import { TOAST } from '@dewy/contracts';

type Sonner = typeof import('sonner');
let sonner: Promise<Sonner> | null = null;

/**
 * The toast library, loaded once on first need (decision 025: it is not part of the landing route's
 * first-load JavaScript). The app's toaster and every `notify` call share this one import; a toast
 * raised before the toaster has mounted is shown when it mounts (sonner replays active toasts).
 */
export function loadSonner(): Promise<Sonner> {
  sonner ??= import('sonner');
  return sonner;
}

/** Toast helpers with the spec's durations (000 §9): success 2 s, error and plain 4 s. */
export const notify = {
  success: (message: string) => void loadSonner().then(({ toast }) => toast.success(message, { duration: TOAST.successMs })),
  error: (message: string) => void loadSonner().then(({ toast }) => toast.error(message, { duration: TOAST.errorMs })),
  info: (message: string) => void loadSonner().then(({ toast }) => toast(message, { duration: TOAST.plainMs })),
};
