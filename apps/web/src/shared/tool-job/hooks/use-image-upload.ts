import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/toast';
import { uploadImage } from '../api/upload-image';
import { jpegName, loadImage, nameFromImageUrl, resizeToJpeg } from '../lib/image-file';
import type { ImageUploadConfig } from '../lib/tool-definition';
import { uploadErrorKey } from '../lib/upload-errors';

export type { ImageUploadConfig };

export interface UploadedImage {
  /** Local object URL of what was uploaded (after any resize), or the stored URL of an adopted image. */
  previewUrl: string;
  /** The stored image's URL, sent as the tool's input image. */
  imageUrl: string;
  /** Size after any client-side resize (px). */
  width: number;
  height: number;
  originalWidth: number;
  originalHeight: number;
  name: string;
  /** Shown as the original of a past result (restore), not as a pick of this visit. */
  restored?: boolean;
}

/**
 * Picking, resizing and uploading a tool's input photo (001 §2/§5), presigned flow first.
 * @param config the tool's upload rules (keep it stable: a module constant)
 * @param onUploaded called after a successful upload or an adopted handoff
 */
export function useImageUpload(config: ImageUploadConfig, onUploaded: (image: UploadedImage) => void) {
  const { t } = useTranslation();
  const [image, setImage] = useState<UploadedImage | null>(null);
  const [uploading, setUploading] = useState(false);
  const [pendingPreview, setPendingPreview] = useState<string | null>(null);
  const current = useRef<string | null>(null);
  const onUploadedRef = useRef(onUploaded);
  useEffect(() => {
    onUploadedRef.current = onUploaded;
  }, [onUploaded]);

  // Release the last local preview when the workspace unmounts.
  useEffect(() => () => {
    if (current.current) URL.revokeObjectURL(current.current);
  }, []);

  /** Keep `next` as the input, releasing the previous local preview. */
  const keep = useCallback((next: UploadedImage, local: boolean) => {
    if (current.current && current.current !== next.previewUrl) URL.revokeObjectURL(current.current);
    current.current = local ? next.previewUrl : null;
    setImage(next);
  }, []);

  const select = useCallback(
    async (file: File) => {
      if (!config.accepts(file)) {
        notify.error(t(config.fileTypeKey));
        return;
      }
      const localUrl = URL.createObjectURL(file);
      setUploading(true);
      setPendingPreview(localUrl);
      let previewUrl = localUrl;
      try {
        const img = await loadImage(localUrl);
        const { naturalWidth: width, naturalHeight: height } = img;
        const target = config.resizeTarget?.(width, height) ?? null;
        let blob: Blob = file;
        let name = file.name;
        if (target) {
          blob = await resizeToJpeg(img, target, config.jpegQuality);
          name = jpegName(file.name);
          previewUrl = URL.createObjectURL(blob);
          URL.revokeObjectURL(localUrl);
          setPendingPreview(previewUrl);
          notify.info(t('toolJob.toast.resized', { from: `${width}×${height}`, to: `${target.width}×${target.height}` }));
        }
        const res = await uploadImage(blob, name, config.kind);
        const uploaded: UploadedImage = {
          previewUrl,
          imageUrl: res.imageUrl,
          width: res.width || target?.width || width,
          height: res.height || target?.height || height,
          originalWidth: width,
          originalHeight: height,
          name,
        };
        keep(uploaded, true);
        onUploadedRef.current(uploaded);
      } catch (err) {
        console.warn('[upload] failed', err);
        URL.revokeObjectURL(previewUrl);
        const key = uploadErrorKey(err, config.fileTypeKey);
        if (key) notify.error(t(key));
      } finally {
        setUploading(false);
        setPendingPreview(null);
      }
    },
    [config, keep, t],
  );

  /** Take an already stored image (a handoff from another tool) as the input. */
  const adopt = useCallback(
    async (imageUrl: string) => {
      try {
        const img = await loadImage(imageUrl);
        const uploaded: UploadedImage = {
          previewUrl: imageUrl,
          imageUrl,
          width: img.naturalWidth,
          height: img.naturalHeight,
          originalWidth: img.naturalWidth,
          originalHeight: img.naturalHeight,
          name: nameFromImageUrl(imageUrl),
        };
        keep(uploaded, false);
        onUploadedRef.current(uploaded);
      } catch (err) {
        console.warn('[handoff] image could not be loaded', err);
      }
    },
    [keep],
  );

  /**
   * Show a stored image of known size as the input without announcing a new upload (a past result's
   * original, restored with its options): the shown result stays.
   */
  const restore = useCallback((stored: { imageUrl: string; width: number; height: number }) => {
    keep(
      {
        previewUrl: stored.imageUrl,
        imageUrl: stored.imageUrl,
        width: stored.width,
        height: stored.height,
        originalWidth: stored.width,
        originalHeight: stored.height,
        name: nameFromImageUrl(stored.imageUrl),
        restored: true,
      },
      false,
    );
  }, [keep]);

  return { image, uploading, pendingPreview, select, adopt, restore };
}
