import { toast } from 'sonner';
import { TOAST } from '@dewy/contracts';

/** Toast helpers with the spec's durations (000 §9): success 2 s, error and plain 4 s. */
export const notify = {
  success: (message: string) => toast.success(message, { duration: TOAST.successMs }),
  error: (message: string) => toast.error(message, { duration: TOAST.errorMs }),
  info: (message: string) => toast(message, { duration: TOAST.plainMs }),
};
