import type { ReactNode } from 'react';
import { Icon, type IconName } from './icons';

/**
 * Page shell for single-card status pages (coming soon, payment result): a centred card with an
 * icon badge and a title, then the page's own content.
 */
export function StatusCard({
  className,
  testId,
  icon,
  iconSize,
  iconClassName,
  title,
  children,
}: {
  className: string;
  testId: string;
  icon: IconName;
  iconSize: number;
  iconClassName?: string;
  title: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="container page">
      <div className={`${className} card`} data-testid={testId}>
        <div className={iconClassName ? `emoji emoji-icon ${iconClassName}` : 'emoji emoji-icon'}>
          <Icon name={icon} size={iconSize} />
        </div>
        <h1>{title}</h1>
        {children}
      </div>
    </div>
  );
}
