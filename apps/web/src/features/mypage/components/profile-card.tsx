import { AUTH_LIMITS, type User } from '@dewy/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { notify } from '../../../lib/toast';
import { useLocale } from '../../../lib/use-locale';
import { patchProfile } from '../api/update-profile';
import { nicknameProblem } from '../lib/nickname';

/**
 * Profile (001 §2): e-mail, the nickname — edited in place under sign-up's rules, checked here first
 * and then by the server, whose refusal is shown in the user's language — the plan with Upgrade
 * (→ /pricing), and Logout (→ /login).
 */
export function ProfileCard({ user }: { user: User }) {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const navigate = useNavigate();
  const { forceSync, signOut } = useSession();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(user.nickname);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const startEdit = () => {
    setDraft(user.nickname);
    setError(null);
    setEditing(true);
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const problem = nicknameProblem(draft);
    if (problem) {
      setError(t(`mypage.profile.${problem}`, { max: AUTH_LIMITS.nameMax }));
      return;
    }
    const nickname = draft.trim();
    if (nickname === user.nickname) {
      setEditing(false);
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await patchProfile({ nickname });
      await forceSync();
      notify.success(t('mypage.profile.saved'));
      setEditing(false);
    } catch (err) {
      // The server answers in the user's language (locale cookie); a network failure gets ours.
      const detail = err instanceof ApiError && !err.isNetwork && err.message ? err.message : t('subscription.genericError');
      setError(t('mypage.profile.saveFailed', { error: detail }));
    } finally {
      setSaving(false);
    }
  };

  const logout = async () => {
    // Leave the signed-in page first, so it does not react to the cleared user.
    await navigate(lp('/login'));
    await signOut();
  };

  const errorId = 'mypage-nickname-error';
  return (
    <section className="card mypage-card mypage-profile" aria-labelledby="mypage-profile-title" data-testid="mypage-profile">
      <h2 id="mypage-profile-title">{t('mypage.profile.title')}</h2>
      <dl className="mypage-facts">
        <div>
          <dt>{t('mypage.profile.email')}</dt>
          <dd data-testid="mypage-email">{user.email}</dd>
        </div>
        <div>
          <dt>{editing ? <label htmlFor="mypage-nickname-input">{t('mypage.profile.nickname')}</label> : t('mypage.profile.nickname')}</dt>
          <dd>
            {editing ? (
              <form className="mypage-nickname-form" onSubmit={(e) => void save(e)} noValidate>
                <input
                  id="mypage-nickname-input"
                  className="mypage-input"
                  value={draft}
                  onChange={(e) => setDraft(e.target.value)}
                  maxLength={AUTH_LIMITS.nameMax + 10}
                  autoComplete="nickname"
                  autoFocus
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? errorId : undefined}
                  disabled={saving}
                  data-testid="mypage-nickname-input"
                />
                <div className="mypage-nickname-actions">
                  <button type="submit" className="btn btn-primary btn-sm" disabled={saving} aria-busy={saving} data-testid="mypage-nickname-save">
                    {saving ? t('mypage.profile.saving') : t('mypage.profile.save')}
                  </button>
                  <button type="button" className="btn btn-secondary btn-sm" onClick={() => setEditing(false)} disabled={saving} data-testid="mypage-nickname-cancel">
                    {t('mypage.profile.cancel')}
                  </button>
                </div>
                {error ? (
                  <p className="mypage-field-error" id={errorId} role="alert" data-testid="mypage-nickname-error">
                    {error}
                  </p>
                ) : null}
              </form>
            ) : (
              <span className="mypage-nickname">
                <span data-testid="mypage-nickname">{user.nickname}</span>
                <button type="button" className="btn btn-ghost btn-sm mypage-inline-btn" onClick={startEdit} data-testid="mypage-nickname-edit">
                  {t('mypage.profile.edit')}
                </button>
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt>{t('mypage.profile.plan')}</dt>
          <dd className="mypage-plan">
            <span className={`mypage-plan-badge plan-${user.plan}`} data-testid="mypage-plan">
              {t(`plans.${user.plan}`)}
            </span>
            <Link className="btn btn-secondary btn-sm" to={lp('/pricing')} data-testid="mypage-upgrade">
              {user.plan === 'premium' ? t('mypage.profile.seePlans') : t('mypage.profile.upgrade')}
            </Link>
          </dd>
        </div>
      </dl>
      <div className="mypage-card-foot">
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => void logout()} data-testid="mypage-logout">
          {t('mypage.profile.logout')}
        </button>
      </div>
    </section>
  );
}
