/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** External community chat invite link (spec 000 §3 build settings). */
  readonly VITE_COMMUNITY_URL?: string;
  /** Support e-mail shown in the footer and payment pages. */
  readonly VITE_SUPPORT_EMAIL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
