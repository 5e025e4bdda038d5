import { API_KEY_LIMITS, type ApiKeyView } from '@dewy/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { ApiError } from '../../../lib/api-client';
import { copyText } from '../../../lib/clipboard';
import { formatSeoulDate } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { notify } from '../../../lib/toast';
import { useLocale } from '../../../lib/use-locale';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../api/api-keys';

/** Expiry choices at creation, in days (0: never). */
const EXPIRY_CHOICES = [0, 30, 90, 365] as const;

/**
 * API keys (decision 040 §1): the account's keys (name, prefix, created, last used, expiry, state), a form
 * to create one (name, expiry) whose secret is shown this once with a copy button, and revocation after a
 * confirmation. Verified accounts only: the server refuses keys to others, and the card says so.
 */
export function ApiKeysCard() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const { user } = useSession();
  const verified = user?.email_verified !== false;
  const keys = useApiKeys(verified);
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState<(typeof EXPIRY_CHOICES)[number]>(0);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [toRevoke, setToRevoke] = useState<ApiKeyView | null>(null);
  const [revokeError, setRevokeError] = useState<string | null>(null);

  const messageOf = (err: unknown) => (err instanceof ApiError && !err.isNetwork ? err.message : t('subscription.genericError'));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!name.trim()) {
      setError(t('apiKeys.nameRequired'));
      return;
    }
    try {
      const created = await create.mutateAsync({ name: name.trim(), ...(expiry ? { expiresInDays: expiry } : {}) });
      setSecret(created.secret);
      setName('');
    } catch (err) {
      setError(messageOf(err));
    }
  };

  const copyWebhookSecret = async (value: string) => {
    if (await copyText(value)) notify.success(t('apiKeys.webhookCopied'));
    else notify.error(t('apiKeys.copyFailed'));
  };
  const copy = async () => {
    if (secret && (await copyText(secret))) notify.success(t('apiKeys.copied'));
    else notify.error(t('apiKeys.copyFailed'));
  };

  const confirmRevoke = async () => {
    if (!toRevoke) return;
    setRevokeError(null);
    try {
      await revoke.mutateAsync(toRevoke.id);
      setToRevoke(null);
      notify.success(t('apiKeys.revoked'));
    } catch (err) {
      setRevokeError(messageOf(err));
    }
  };

  const date = (iso: string | null) => (iso ? formatSeoulDate(iso, locale) : '–');

  return (
    <section className="card mypage-card mypage-api-keys" aria-labelledby="mypage-api-keys-title" data-testid="mypage-api-keys">
      <h2 id="mypage-api-keys-title">{t('apiKeys.title')}</h2>
      <p className="mypage-muted">
        {t('apiKeys.intro')}{' '}
        <a href="/api/docs" target="_blank" rel="noreferrer">
          {t('apiKeys.docs')}
        </a>
      </p>
      {!verified ? (
        <p className="mypage-muted" data-testid="api-keys-unverified">
          {t('apiKeys.unverified')}
        </p>
      ) : (
        <>
          {secret ? (
            <div className="api-key-secret" role="status" data-testid="api-key-secret">
              <strong>{t('apiKeys.secretTitle')}</strong>
              <p className="mypage-muted">{t('apiKeys.secretOnce')}</p>
              <div className="api-key-secret-row">
                <code data-testid="api-key-secret-value">{secret}</code>
                <button type="button" className="btn btn-primary btn-sm" onClick={() => void copy()} data-testid="api-key-copy">
                  {t('apiKeys.copy')}
                </button>
              </div>
              <button type="button" className="btn btn-secondary btn-sm" onClick={() => setSecret(null)} data-testid="api-key-secret-done">
                {t('apiKeys.done')}
              </button>
            </div>
          ) : null}
          <form className="api-key-form" onSubmit={(e) => void submit(e)} noValidate>
            <label className="api-key-field">
              <span>{t('apiKeys.name')}</span>
              <input
                className="mypage-input"
                value={name}
                maxLength={API_KEY_LIMITS.nameMax}
                onChange={(e) => setName(e.target.value)}
                placeholder={t('apiKeys.namePlaceholder')}
                aria-invalid={error ? true : undefined}
                data-testid="api-key-name"
              />
            </label>
            <label className="api-key-field">
              <span>{t('apiKeys.expiry')}</span>
              <select className="mypage-input" value={expiry} onChange={(e) => setExpiry(Number(e.target.value) as (typeof EXPIRY_CHOICES)[number])} data-testid="api-key-expiry">
                {EXPIRY_CHOICES.map((d) => (
                  <option key={d} value={d}>
                    {d ? t('apiKeys.expiryDays', { n: d }) : t('apiKeys.expiryNever')}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="btn btn-primary btn-sm" disabled={create.isPending} aria-busy={create.isPending} data-testid="api-key-create">
              {t('apiKeys.create')}
            </button>
          </form>
          {error ? (
            <p className="mypage-field-error" role="alert" data-testid="api-key-error">
              {error}
            </p>
          ) : null}
          {keys.isError ? (
            <p className="mypage-muted">{t('apiKeys.loadFailed')}</p>
          ) : keys.data && keys.data.length === 0 ? (
            <p className="mypage-muted" data-testid="api-keys-empty">
              {t('apiKeys.empty')}
            </p>
          ) : (
            <>
              <p className="mypage-muted api-key-webhook-help">{t('apiKeys.webhookHelp')}</p>
              <ul className="api-key-list" data-testid="api-key-list">
                {(keys.data ?? []).map((k) => (
                  <li key={k.id} className={`api-key-item is-${k.state}`} data-testid="api-key-item" data-state={k.state}>
                    <div className="api-key-head">
                      <strong className="api-key-name">{k.name}</strong>
                      <span className={`api-key-state state-${k.state}`}>{t(`apiKeys.state.${k.state}`)}</span>
                    </div>
                    <code className="api-key-prefix">{k.prefix}…</code>
                    <dl className="api-key-dates">
                      <div>
                        <dt>{t('apiKeys.created')}</dt>
                        <dd>{date(k.createdAt)}</dd>
                      </div>
                      <div>
                        <dt>{t('apiKeys.lastUsed')}</dt>
                        <dd>{k.lastUsedAt ? date(k.lastUsedAt) : t('apiKeys.never')}</dd>
                      </div>
                      <div>
                        <dt>{t('apiKeys.expires')}</dt>
                        <dd>{k.expiresAt ? date(k.expiresAt) : t('apiKeys.expiryNever')}</dd>
                      </div>
                    </dl>
                    {k.state === 'active' ? (
                      <div className="api-key-webhook">
                        <span className="api-key-webhook-label">
                          {t('apiKeys.webhookSecret')}
                        </span>
                        <code className="api-key-prefix" data-testid="api-key-webhook-secret">
                          {k.webhookSecret.slice(0, 14)}…
                        </code>
                        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void copyWebhookSecret(k.webhookSecret)} data-testid="api-key-webhook-copy">
                          {t('apiKeys.copy')}
                        </button>
                      </div>
                    ) : null}
                    {k.state === 'active' ? (
                      <button type="button" className="btn btn-ghost btn-sm api-key-revoke" onClick={() => setToRevoke(k)} data-testid="api-key-revoke">
                        {t('apiKeys.revoke')}
                      </button>
                    ) : null}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      <Dialog
        open={toRevoke !== null}
        onOpenChange={(o) => !o && !revoke.isPending && setToRevoke(null)}
        title={t('apiKeys.revokeTitle')}
        description={t('apiKeys.revokeBody', { name: toRevoke?.name ?? '' })}
        testId="api-key-revoke-dialog"
        closeLabel={t('common.close')}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setToRevoke(null)} disabled={revoke.isPending}>
              {t('mypage.profile.cancel')}
            </button>
            <button type="button" className="btn btn-danger" onClick={() => void confirmRevoke()} disabled={revoke.isPending} data-testid="api-key-revoke-confirm">
              {t('apiKeys.revoke')}
            </button>
          </>
        }
      >
        {revokeError ? (
          <p className="mypage-field-error" role="alert">
            {revokeError}
          </p>
        ) : null}
      </Dialog>
    </section>
  );
}
