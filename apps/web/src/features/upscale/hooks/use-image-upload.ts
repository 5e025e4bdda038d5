import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadResizeTarget } from '@dewy/contracts';
import { notify } from '../../../lib/toast';
import { uploadImage } from '../api/upload-image';
import { uploadErrorKey } from '../lib/errors';
import { isAcceptedImageName, jpegName, loadImage, resizeToJpeg } from '../lib/image-file';

export interface UploadedImage {
  /** Local object URL of what was uploaded (after any resize). */
  previewUrl: string;
  /** The stored image's URL, sent as the upscale `image`. */
  imageUrl: string;
  /** Size after any client-side resize (px). */
  width: number;
  height: number;
  originalWidth: number;
  originalHeight: number;
  name: string;
}

/**
 * Picking, resizing (pixel-sum table, JPEG 0.9) and uploading the input photo (001 §2/§5).
 * @param onUploaded called after a successful upload
 */
export function useImageUpload(onUploaded: (image: UploadedImage) => void) {
  const { t } = useTranslation();
  const [image, setImage] = useState<UploadedImage | null>(null);
  const [uploading, setUploading] = useState(false);
  const [pendingPreview, setPendingPreview] = useState<string | null>(null);
  const current = useRef<string | null>(null);
  const onUploadedRef = useRef(onUploaded);
  useEffect(() => {
    onUploadedRef.current = onUploaded;
  }, [onUploaded]);

  // Release the last preview when the workspace unmounts.
  useEffect(() => () => {
    if (current.current) URL.revokeObjectURL(current.current);
  }, []);

  const select = useCallback(
    async (file: File) => {
      if (!isAcceptedImageName(file.name)) {
        notify.error(t('upscale.error.fileType'));
        return;
      }
      const localUrl = URL.createObjectURL(file);
      setUploading(true);
      setPendingPreview(localUrl);
      let previewUrl = localUrl;
      try {
        const img = await loadImage(localUrl);
        const { naturalWidth: width, naturalHeight: height } = img;
        const target = uploadResizeTarget(width, height);
        let blob: Blob = file;
        let name = file.name;
        if (target) {
          blob = await resizeToJpeg(img, target);
          name = jpegName(file.name);
          previewUrl = URL.createObjectURL(blob);
          URL.revokeObjectURL(localUrl);
          setPendingPreview(previewUrl);
          notify.info(t('upscale.toast.resized', { from: `${width}×${height}`, to: `${target.width}×${target.height}` }));
        }
        const res = await uploadImage(blob, name);
        const uploaded: UploadedImage = {
          previewUrl,
          imageUrl: res.imageUrl,
          width: res.width || target?.width || width,
          height: res.height || target?.height || height,
          originalWidth: width,
          originalHeight: height,
          name,
        };
        if (current.current && current.current !== previewUrl) URL.revokeObjectURL(current.current);
        current.current = previewUrl;
        setImage(uploaded);
        onUploadedRef.current(uploaded);
      } catch (err) {
        console.warn('[upload] failed', err);
        URL.revokeObjectURL(previewUrl);
        notify.error(t(uploadErrorKey(err)));
      } finally {
        setUploading(false);
        setPendingPreview(null);
      }
    },
    [t],
  );

  /** Take an already stored image (a handoff from another tool) as the input. */
  const adopt = useCallback(async (imageUrl: string) => {
    try {
      const img = await loadImage(imageUrl);
      const uploaded: UploadedImage = {
        previewUrl: imageUrl,
        imageUrl,
        width: img.naturalWidth,
        height: img.naturalHeight,
        originalWidth: img.naturalWidth,
        originalHeight: img.naturalHeight,
        name: imageUrl.split('?')[0]?.split('/').pop() || 'image.jpg',
      };
      setImage(uploaded);
      onUploadedRef.current(uploaded);
    } catch (err) {
      console.warn('[handoff] image could not be loaded', err);
    }
  }, []);

  return { image, uploading, pendingPreview, select, adopt };
}
