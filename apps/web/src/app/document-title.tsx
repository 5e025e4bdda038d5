import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { stripEnPrefix } from '../lib/locale-path';

const TITLE_KEYS: Record<string, string> = {
  upscale: 'tools.upscale.name',
  'image-edit': 'tools.imageEdit.name',
  'face-edit': 'tools.faceEdit.name',
  'image-generation': 'tools.imageGeneration.name',
  chat: 'pages.chat',
  login: 'auth.login.title',
  signup: 'auth.signup.title',
  pricing: 'nav.pricing',
  notice: 'nav.notice',
  mypage: 'nav.mypage',
  terms: 'footer.terms',
  privacy: 'footer.privacy',
  refund: 'footer.refund',
};

/** Keeps `document.title` in step with the page and the language. */
export function DocumentTitle() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  useEffect(() => {
    const first = stripEnPrefix(pathname).split('/')[1] ?? '';
    const key = TITLE_KEYS[first];
    document.title = key ? `${t(key)} · Dewy` : `Dewy — ${t('landing.eyebrow')}`;
  }, [pathname, t]);
  return null;
}
