import * as RadixSelect from '@radix-ui/react-select';
import './ui.css';

export interface SelectOption<V extends string> {
  value: V;
  label: string;
}

export interface SelectProps<V extends string> {
  id?: string;
  label: string;
  value: V;
  options: readonly SelectOption<V>[];
  onChange: (value: V) => void;
  disabled?: boolean;
  testId?: string;
}

/** Labelled dropdown on Radix Select. */
export function Select<V extends string>({ id, label, value, options, onChange, disabled, testId }: SelectProps<V>) {
  const current = options.find((o) => o.value === value);
  return (
    <div className="ui-field">
      <span className="ui-field-label" id={id ? `${id}-label` : undefined}>
        {label}
      </span>
      <RadixSelect.Root value={value} onValueChange={(v) => onChange(v as V)} disabled={disabled}>
        <RadixSelect.Trigger className="ui-select-trigger" aria-labelledby={id ? `${id}-label` : undefined} aria-label={label} data-testid={testId}>
          <RadixSelect.Value>{current?.label}</RadixSelect.Value>
          <RadixSelect.Icon className="ui-select-icon">▾</RadixSelect.Icon>
        </RadixSelect.Trigger>
        <RadixSelect.Portal>
          <RadixSelect.Content className="ui-select-content" position="popper" sideOffset={4}>
            <RadixSelect.Viewport>
              {options.map((o) => (
                <RadixSelect.Item key={o.value} value={o.value} className="ui-select-item" data-testid={testId ? `${testId}-${o.value}` : undefined}>
                  <RadixSelect.ItemText>{o.label}</RadixSelect.ItemText>
                  <RadixSelect.ItemIndicator className="ui-select-check">✓</RadixSelect.ItemIndicator>
                </RadixSelect.Item>
              ))}
            </RadixSelect.Viewport>
          </RadixSelect.Content>
        </RadixSelect.Portal>
      </RadixSelect.Root>
    </div>
  );
}
