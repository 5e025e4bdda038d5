/** The pin mark of a pinned notice (spec 002 §2: shown instead of its number). */
export function PinMark({ label }: { label: string }) {
  return (
    <span className="notice-pin" role="img" aria-label={label} title={label} data-testid="notice-pin">
      {/* Material Icons "push_pin" (Apache-2.0). */}
      <svg width="16" height="16" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
        <path d="M16 9V4h1c.55 0 1-.45 1-1s-.45-1-1-1H7c-.55 0-1 .45-1 1s.45 1 1 1h1v5c0 1.66-1.34 3-3 3v2h5.97v7l1 1 1-1v-7H19v-2c-1.66 0-3-1.34-3-3z" />
      </svg>
    </span>
  );
}
