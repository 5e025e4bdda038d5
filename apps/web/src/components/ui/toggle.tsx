import * as RadixSwitch from '@radix-ui/react-switch';
import './ui.css';

export interface ToggleProps {
  id: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  badge?: string;
  testId?: string;
}

/** Labelled switch on Radix Switch. */
export function Toggle({ id, label, checked, onChange, badge, testId }: ToggleProps) {
  return (
    <div className="ui-toggle">
      <label htmlFor={id} className="ui-toggle-label">
        {label}
        {badge ? <span className="ui-badge ui-badge-muted">{badge}</span> : null}
      </label>
      <RadixSwitch.Root id={id} className="ui-switch" checked={checked} onCheckedChange={onChange} data-testid={testId}>
        <RadixSwitch.Thumb className="ui-switch-thumb" />
      </RadixSwitch.Root>
    </div>
  );
}
