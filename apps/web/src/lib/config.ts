/** Build-time settings (spec 000 §3). Values come from VITE_* variables with safe defaults. */
export const COMMUNITY_URL = import.meta.env.VITE_COMMUNITY_URL || 'https://discord.gg/dewy';
export const SUPPORT_EMAIL = import.meta.env.VITE_SUPPORT_EMAIL || 'support@dewy.ai';
