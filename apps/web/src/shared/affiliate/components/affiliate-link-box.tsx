import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../lib/clipboard';
import { notify } from '../../../lib/toast';
import { useAffiliateLink } from '../hooks/use-affiliate';
import './affiliate.css';

export interface AffiliateLinkBoxProps {
  /** `<prefix>-link` (the field), `-copy` (the button), `-link-error`. */
  testIdPrefix: string;
  /** The link is asked for only while true (the feature is enabled). */
  active: boolean;
}

/**
 * The affiliate link copy box (001 §2): the caller's share link in a read-only field and a Copy
 * button. A refused copy shows the catalogue's 'link copy failed' (001 §8) and selects the link so it
 * can be copied by hand; a link that cannot be loaded says so with a retry.
 */
export function AffiliateLinkBox({ testIdPrefix, active }: AffiliateLinkBoxProps) {
  const { t } = useTranslation();
  const link = useAffiliateLink(active);
  const [copied, setCopied] = useState(false);
  const value = link.data?.link ?? '';
  const fieldId = `${testIdPrefix}-link-field`;

  const copy = async () => {
    if (!value) return;
    if (await copyText(value)) {
      setCopied(true);
      notify.success(t('affiliate.copied'));
      window.setTimeout(() => setCopied(false), 2000);
    } else {
      notify.error(t('affiliate.copyFailed'));
      const field = document.getElementById(fieldId);
      if (field instanceof HTMLInputElement) field.select();
    }
  };

  if (link.isError) {
    return (
      <div className="aff-box-error" role="alert" data-testid={`${testIdPrefix}-link-error`}>
        <span>{t('affiliate.linkFailed')}</span>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void link.refetch()}>
          {t('affiliate.retry')}
        </button>
      </div>
    );
  }

  return (
    <div className="aff-box">
      <label className="visually-hidden" htmlFor={fieldId}>
        {t('affiliate.linkLabel')}
      </label>
      <input
        id={fieldId}
        className="aff-box-field"
        type="text"
        readOnly
        value={value}
        placeholder={link.isPending ? t('affiliate.loading') : ''}
        onFocus={(e) => e.currentTarget.select()}
        data-testid={`${testIdPrefix}-link`}
      />
      <button type="button" className="btn btn-primary btn-sm aff-box-copy" onClick={() => void copy()} disabled={!value} data-testid={`${testIdPrefix}-copy`}>
        {copied ? t('affiliate.copiedShort') : t('affiliate.copy')}
      </button>
    </div>
  );
}
