import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/toast';
import { downloadImage } from '../api/download';

/** A tool's download failure wording (001 §8): one text, or one online and one offline. */
export interface ImageDownloadCopy {
  /** i18n key when every route failed (default 'toolJob.error.download'). */
  failedKey?: string;
  /** i18n key used instead when the browser is offline (face edit: 'Network disconnected…'). */
  offlineKey?: string;
}

/** Download a result with the spec's fallbacks (001 §7/§9); a toast when every route failed. */
export function useImageDownload({ failedKey = 'toolJob.error.download', offlineKey }: ImageDownloadCopy = {}) {
  const { t } = useTranslation();
  const [downloading, setDownloading] = useState(false);
  const download = useCallback(
    async (url: string) => {
      setDownloading(true);
      try {
        if (!(await downloadImage(url))) notify.error(t(offlineKey && !navigator.onLine ? offlineKey : failedKey));
      } finally {
        setDownloading(false);
      }
    },
    [t, failedKey, offlineKey],
  );
  return { downloading, download };
}
