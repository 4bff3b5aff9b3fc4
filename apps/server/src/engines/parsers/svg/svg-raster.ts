/**
 * A safe SVG (svg-safe.ts) drawn into a PNG with @napi-rs/canvas (Skia), in the parse process whose
 * memory and time are watched. On white: books draw their figures for a white page, and Standard
 * Ebooks' black-on-transparent scores would vanish on a dark one.
 */
import type { SafeSvg } from './svg-safe.ts';

export async function rasterizeSvg(picture: SafeSvg): Promise<{ data: Buffer; width: number; height: number }> {
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const image = await loadImage(Buffer.from(picture.svg));
  const canvas = createCanvas(picture.width, picture.height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, picture.width, picture.height);
  ctx.drawImage(image, 0, 0, picture.width, picture.height);
  return { data: await canvas.encode('png'), width: picture.width, height: picture.height };
}
