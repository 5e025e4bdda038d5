/**
 * The affiliate layer shared by My Page and the tool pages (001 §2/§7): whether the programme is on,
 * the caller's share link, the copy box and the share-link popup with its button.
 */
export { AFFILIATE_KEYS, useAffiliateEnabled, useAffiliateLink } from './hooks/use-affiliate';
export { AffiliateLinkBox, type AffiliateLinkBoxProps } from './components/affiliate-link-box';
export { ShareLinkDialog, type ShareLinkDialogProps } from './components/share-link-dialog';
export { ShareLinkButton, type ShareLinkButtonProps } from './components/share-link-button';
