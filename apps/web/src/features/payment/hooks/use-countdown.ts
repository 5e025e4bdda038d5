import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';

/** Counts down whole seconds, then navigates to `to` (payment pages, spec 000 §2). */
export function useCountdown(seconds: number, to: string, active: boolean): number {
  const [left, setLeft] = useState(seconds);
  const navigate = useNavigate();
  useEffect(() => {
    if (!active) return;
    const started = Date.now();
    const id = window.setInterval(() => {
      const remaining = Math.max(0, seconds - Math.floor((Date.now() - started) / 1000));
      setLeft(remaining);
      if (remaining === 0) {
        window.clearInterval(id);
        void navigate(to, { replace: true });
      }
    }, 250);
    return () => window.clearInterval(id);
  }, [seconds, to, active, navigate]);
  return left;
}
