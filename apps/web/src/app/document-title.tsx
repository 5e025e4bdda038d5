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
    const segments = stripEnPrefix(pathname).split('/');
    const first = segments[1] ?? '';
    // A receipt is titled as one: the title is what a printed page carries at its top.
    const key = first === 'mypage' && segments[2] === 'receipts' ? 'pages.receipt' : TITLE_KEYS[first];
    document.title = key ? `${t(key)} · Dewy` : `Dewy — ${t('landing.eyebrow')}`;
  }, [pathname, t]);
  return null;
}
