/** The credit drop mark (inline SVG, so it renders without an emoji font). */
export function DropIcon({ size = 14, className }: { size?: number; className?: string }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" className={className} style={{ flexShrink: 0 }}>
      <path d="M12 2.5S5 10.2 5 14.6a7 7 0 0 0 14 0C19 10.2 12 2.5 12 2.5z" fill="currentColor" />
      <ellipse cx="9.6" cy="14.8" rx="1.6" ry="2.6" fill="#fff" opacity=".45" />
    </svg>
  );
}
