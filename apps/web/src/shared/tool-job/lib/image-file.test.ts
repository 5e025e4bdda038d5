import { describe, expect, it } from 'vitest';
import { isAcceptedImageName, isAcceptedImageType, jpegName, nameFromImageUrl } from './image-file';

describe('image files', () => {
  it('accepts jpg, jpeg and png by extension only (001 §5)', () => {
    expect(['a.jpg', 'b.JPEG', 'c.png'].map(isAcceptedImageName)).toEqual([true, true, true]);
    expect(['a.gif', 'png', 'a.webp'].map(isAcceptedImageName)).toEqual([false, false, false]);
  });
  it('accepts image/jpeg and image/png by MIME type only (001 §5, face edit)', () => {
    expect(['image/jpeg', 'image/png', 'IMAGE/PNG'].map(isAcceptedImageType)).toEqual([true, true, true]);
    expect(['', 'image/webp', 'image/gif', 'image/jpg', 'application/octet-stream'].map(isAcceptedImageType)).toEqual([false, false, false, false, false]);
  });
  it('names resized and stored images', () => {
    expect(jpegName('photo.png')).toBe('photo.jpg');
    expect(nameFromImageUrl('http://localhost:5000/api/storage/file?key=u%2F3%2Fup%2Fab12.jpg&exp=1&sig=x')).toBe('ab12.jpg');
    expect(nameFromImageUrl('https://cdn.example.com/u/3/up/cd34.png?X-Amz-Signature=1')).toBe('cd34.png');
  });
});
