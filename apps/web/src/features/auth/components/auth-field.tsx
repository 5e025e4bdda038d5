import type { InputHTMLAttributes, ReactNode } from 'react';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'required'>;

/** A labelled, required auth form input; `hint` renders below it. */
export function AuthField({
  label,
  value,
  onValue,
  testId,
  hint,
  ...input
}: InputProps & { label: ReactNode; value: string; onValue: (value: string) => void; testId: string; hint?: ReactNode }) {
  return (
    <label className="auth-field">
      <span>{label}</span>
      <input {...input} required value={value} onChange={(e) => onValue(e.target.value)} data-testid={testId} />
      {hint}
    </label>
  );
}
