import { createCanvas, loadImage } from '@napi-rs/canvas';
import { imageInfo } from '../parsers/image-info.ts';

/** Pictures people upload are decoded and re-encoded: metadata (EXIF, GPS) and any payload are dropped. */
export const MAX_IMAGE_PIXELS = 40_000_000;

export type ImageKind = 'jpeg' | 'png' | 'gif' | 'webp';

/** The image type by magic bytes, whatever the file name says. */
export function imageKind(data: Buffer): ImageKind | undefined {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (data.length >= 6 && data.subarray(0, 4).toString('latin1') === 'GIF8') return 'gif';
  if (
    data.length >= 12 &&
    data.subarray(0, 4).toString('latin1') === 'RIFF' &&
    data.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp';
  return undefined;
}

export class ImageError extends Error {}

/** The centre square of an image, `size` pixels wide, as JPEG (avatars). */
export async function squareJpeg(data: Buffer, size: number): Promise<Buffer> {
  const image = await decode(data);
  const side = Math.min(image.width, image.height);
  const canvas = createCanvas(size, size);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, size, size);
  ctx.drawImage(image, (image.width - side) / 2, (image.height - side) / 2, side, side, 0, 0, size, size);
  return canvas.encode('jpeg', 88);
}

async function decode(data: Buffer) {
  if (!imageKind(data)) throw new ImageError('not an image');
  const info = imageInfo(data);
  if (info?.width && info.height && info.width * info.height > MAX_IMAGE_PIXELS)
    throw new ImageError('image too large');
  try {
    return await loadImage(data);
  } catch {
    throw new ImageError('image cannot be decoded');
  }
}

/**
 * Scales an image to fit in `maxWidth` x `maxHeight` (never up) and encodes it as JPEG. Refuses
 * images whose header announces more than MAX_IMAGE_PIXELS before decoding them (decompression bombs).
 */
export async function toJpeg(
  data: Buffer,
  maxWidth: number,
  maxHeight: number,
  quality = 85,
): Promise<{ data: Buffer; width: number; height: number }> {
  const image = await decode(data);
  const scale = Math.min(1, maxWidth / image.width, maxHeight / image.height);
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  // JPEG has no transparency: paint transparent PNG covers on white, not black.
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(image, 0, 0, width, height);
  return { data: await canvas.encode('jpeg', quality), width, height };
}

/** An image re-encoded as PNG at its own size (for readers that only know the common formats, e.g. WebP in EPUB 3.2). */
export async function toPng(data: Buffer): Promise<Buffer> {
  const image = await decode(data);
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(image, 0, 0);
  return canvas.encode('png');
}
