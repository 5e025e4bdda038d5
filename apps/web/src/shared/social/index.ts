/**
 * Social sign-in shared by the auth pages and My Page (issue 14, decision 021): which providers the
 * server has configured, the Google Identity Services button, the calls, and the start URL of the
 * Naver/Kakao redirects.
 */
export { SOCIAL_KEYS, useSocialProviders, fetchSocialProviders, postGoogleCredential, postGoogleLink, fetchIdentities, deleteIdentity, socialStartUrl } from './social-api';
export { GoogleSignInButton } from './google-button';
