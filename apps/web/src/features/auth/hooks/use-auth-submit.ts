import { useState, type FormEvent } from 'react';

/**
 * Form submit for the auth pages: clears the error, runs `action`, and on failure shows
 * `describeError(err)`. `submit` is ready for a form's onSubmit.
 */
export function useAuthSubmit(action: () => Promise<void>, describeError: (err: unknown) => string) {
  const [error, setError] = useState<string | null>(null);
  const run = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(describeError(err));
    }
  };
  const submit = (e: FormEvent) => void run(e);
  return { error, submit };
}
