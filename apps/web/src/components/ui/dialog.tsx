import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import './ui.css';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons at the bottom. */
  actions?: ReactNode;
  size?: 'sm' | 'md' | 'full';
  testId?: string;
  /** Blocking dialogs cannot be dismissed by Escape or an outside click. */
  dismissible?: boolean;
  closeLabel?: string;
  /** False keeps a dismissible dialog open on a click outside it (work in progress, e.g. a mask). */
  closeOnOutsideClick?: boolean;
  /** Extra class on the dialog box (a tool's own layout, e.g. the mask editor's 90 % box). */
  className?: string;
}

/** Modal dialog on Radix (focus trap, Escape, aria wiring). */
export function Dialog({ open, onOpenChange, title, description, children, actions, size = 'sm', testId, dismissible = true, closeLabel = 'Close', className, closeOnOutsideClick = true }: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="ui-dialog-overlay" />
        <RadixDialog.Content
          className={`ui-dialog ui-dialog-${size}${className ? ` ${className}` : ''}`}
          data-testid={testId}
          onEscapeKeyDown={(e) => {
            if (!dismissible) e.preventDefault();
          }}
          onInteractOutside={(e) => {
            // Covers pointer-down and focus moving outside (e.g. an autofocused field on the page below).
            if (!dismissible || !closeOnOutsideClick) e.preventDefault();
          }}
        >
          <div className="ui-dialog-head">
            <RadixDialog.Title className="ui-dialog-title">{title}</RadixDialog.Title>
            {dismissible ? (
              <RadixDialog.Close className="ui-icon-button" aria-label={closeLabel}>
                ×
              </RadixDialog.Close>
            ) : null}
          </div>
          {description ? <RadixDialog.Description className="ui-dialog-desc">{description}</RadixDialog.Description> : <RadixDialog.Description className="visually-hidden">{typeof title === 'string' ? title : ''}</RadixDialog.Description>}
          {children ? <div className="ui-dialog-body">{children}</div> : null}
          {actions ? <div className="ui-dialog-actions">{actions}</div> : null}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
