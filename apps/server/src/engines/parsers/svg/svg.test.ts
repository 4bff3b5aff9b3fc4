import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadImage } from '@napi-rs/canvas';
import { findFirst, localName, parseMarkup } from '../markup.ts';
import { rasterizeSvg } from './svg-raster.ts';
import { isDrawing, safeSvg, SVG_LIMITS, type SafeSvg } from './svg-safe.ts';

const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PLAINCHANT = readFileSync(
  path.join(import.meta.dirname, '../epub/fixtures/standard-ebooks/ulysses-illustration-1.svg'),
  'utf8',
);

const rootOf = (source: string) => findFirst(parseMarkup(source), (e) => localName(e.name) === 'svg')!;
const safe = (source: string, picture?: (href: string) => Buffer | undefined): SafeSvg => {
  const outcome = safeSvg(rootOf(source), picture ? { picture } : {});
  if (!outcome.ok) throw new Error(outcome.reason);
  return outcome.picture;
};

/** Share of the picture's pixels that are not white. */
async function inked(png: Buffer): Promise<number> {
  const image = await loadImage(png);
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const data = ctx.getImageData(0, 0, image.width, image.height).data;
  let dark = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i]! < 128) dark++;
  return dark / (image.width * image.height);
}

describe('SVG pictures', () => {
  it('draws Standard Ebooks’ plainchant score into a PNG at twice its size, with its title', async () => {
    const picture = safe(PLAINCHANT);
    expect(picture.title).toBe('Plainchant notation of the first line of the Gloria from the Latin Catholic Mass.');
    expect([picture.width, picture.height]).toEqual([724, 234]);
    const png = await rasterizeSvg(picture);
    expect(png.data.subarray(1, 4).toString('latin1')).toBe('PNG');
    // Staff lines and neumes, black on the white it is drawn on.
    const ink = await inked(png.data);
    expect(ink).toBeGreaterThan(0.03);
    expect(ink).toBeLessThan(0.5);
  });

  it('leaves out scripts, handlers, foreign objects, animation and every reference outside the drawing', async () => {
    const hostile = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 100" onload="alert(1)">
      <script>alert(document.cookie)</script>
      <style>@import url(https://evil.example/x.css); rect { fill: url(https://evil.example/p.svg#f) } .ok { fill: #000 }</style>
      <foreignObject width="100" height="100"><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.example/"/></foreignObject>
      <a xlink:href="javascript:alert(2)"><rect class="ok" width="50" height="50" onclick="alert(3)"/></a>
      <image xlink:href="https://evil.example/track.png" width="10" height="10"/>
      <image href="file:///etc/passwd" width="10" height="10"/>
      <image href="../images/photo.png" width="10" height="10"/>
      <use xlink:href="https://evil.example/sprites.svg#icon"/>
      <set attributeName="fill" to="red"/><animate attributeName="x" values="0;1"/>
      <rect x="50" y="50" width="50" height="50" style="fill: url('https://evil.example/f')" filter="url(https://evil.example/#f)"/>
      <inkscape:perspective xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"/>
    </svg>`;
    const placed: string[] = [];
    const picture = safe(hostile, (href) => {
      placed.push(href);
      return href === '../images/photo.png' ? PNG_1x1 : undefined;
    });
    for (const word of [
      'script',
      'alert',
      'foreignObject',
      'iframe',
      'evil',
      'javascript',
      'file:',
      'onload',
      'onclick',
      'animate',
      '<set',
      '@import',
      'inkscape',
    ])
      expect(picture.svg).not.toContain(word);
    // The picture of the book it places is put in as data; nothing else is asked for.
    expect(placed).toEqual(['../images/photo.png']);
    expect(picture.svg).toContain('xlink:href="data:image/png;base64,');
    expect(picture.svg).toContain('<rect class="ok" width="50" height="50">');
    expect((await rasterizeSvg(picture)).data.length).toBeGreaterThan(0);
  });

  it('draws a drawing that declares an enormous size within the pixel caps', async () => {
    const huge = safe(
      '<svg xmlns="http://www.w3.org/2000/svg" width="100000000" height="50000000"><rect width="100%" height="100%"/></svg>',
    );
    expect(Math.max(huge.width, huge.height)).toBeLessThanOrEqual(SVG_LIMITS.side);
    expect(huge.width * huge.height).toBeLessThanOrEqual(SVG_LIMITS.pixels);
    expect(huge.svg).toContain('viewBox="0 0 100000000 50000000"');
    const tall = safe(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 4000"><rect width="10" height="10"/></svg>',
    );
    expect([tall.width, tall.height]).toEqual([6, SVG_LIMITS.side]);
    const png = await rasterizeSvg(huge);
    expect(png.width * png.height).toBeLessThanOrEqual(SVG_LIMITS.pixels);
  });

  it('refuses uses that multiply (the billion laughs of SVG) or refer to themselves, before drawing', () => {
    let defs = '<path id="l0" d="M0 0h1"/>';
    for (let level = 1; level <= 9; level++)
      defs += `<g id="l${level}">${`<use xlink:href="#l${level - 1}"/>`.repeat(10)}</g>`;
    const bomb = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><defs>${defs}</defs><use xlink:href="#l9"/></svg>`;
    expect(safeSvg(rootOf(bomb))).toMatchObject({ ok: false, reason: expect.stringContaining('draws more than') });
    const loop =
      '<svg xmlns="http://www.w3.org/2000/svg"><g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g></svg>';
    expect(safeSvg(rootOf(loop)).ok).toBe(false);
    // Four levels of ten is a real drawing's repetition (a hatching, a score's staves): drawn.
    let fine = '<path id="l0" d="M0 0h1"/>';
    for (let level = 1; level <= 4; level++)
      fine += `<g id="l${level}">${`<use href="#l${level - 1}"/>`.repeat(10)}</g>`;
    expect(
      safeSvg(rootOf(`<svg xmlns="http://www.w3.org/2000/svg"><defs>${fine}</defs><use href="#l4"/></svg>`)).ok,
    ).toBe(true);
  });

  it('tells a drawing from text alone or a frame around a photograph', () => {
    expect(isDrawing(rootOf(PLAINCHANT))).toBe(true);
    expect(isDrawing(rootOf('<svg><text x="1" y="1">North</text></svg>'))).toBe(false);
    expect(isDrawing(rootOf('<svg><image href="cover.jpg" width="600" height="800"/></svg>'))).toBe(false);
  });
});
