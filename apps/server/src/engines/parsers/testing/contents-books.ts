/**
 * Books made for tests of the contents, each with a structure real books have: an EPUB 3 nav three
 * levels deep (labels without links, entries into the middle of a file, several to one place, a web
 * link), an EPUB 2 NCX with nested navPoints (one without a target), Standard Ebooks' Ulysses (parts
 * of episodes, a file each) and Pepys's diary (years of months), a DOCX with three heading levels,
 * texts with 卷/第N回 and Часть/Глава headings, a Russian Word 95 novel, a story collection whose
 * titles stand alone. Used by the parser tests and by the export's.
 */
import JSZip from 'jszip';
import { compoundFile, word6Stream } from '../doc/doc-fixture.ts';
import { buildDocx } from '../docx/docx-fixture.ts';

export interface ContentDocument {
  name: string;
  body: string;
}

/** An EPUB with these documents in its spine and the given nav document and/or NCX (entries only). */
export async function makeEpub(
  docs: ContentDocument[],
  toc: { nav?: string; ncx?: string },
  title = 'Contents',
): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
  zip.file(
    'META-INF/container.xml',
    `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
  );
  const items = docs.map((d, i) => `<item id="d${i}" href="${d.name}" media-type="application/xhtml+xml"/>`).join('');
  const nav = toc.nav ? '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>' : '';
  const ncx = toc.ncx ? '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>' : '';
  const spine = docs.map((_d, i) => `<itemref idref="d${i}"/>`).join('');
  zip.file(
    'OEBPS/content.opf',
    `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="${toc.nav ? '3.0' : '2.0'}"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${title}</dc:title><dc:language>en</dc:language></metadata><manifest>${items}${nav}${ncx}</manifest><spine${toc.ncx ? ' toc="ncx"' : ''}>${spine}</spine></package>`,
  );
  if (toc.nav) {
    zip.file(
      'OEBPS/nav.xhtml',
      `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head><body><nav epub:type="toc"><h1>Contents</h1>${toc.nav}</nav></body></html>`,
    );
  }
  if (toc.ncx) {
    zip.file(
      'OEBPS/toc.ncx',
      `<?xml version="1.0" encoding="utf-8"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><head/><docTitle><text>${title}</text></docTitle><navMap>${toc.ncx}</navMap></ncx>`,
    );
  }
  for (const d of docs) {
    zip.file(
      `OEBPS/${d.name}`,
      `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>x</title></head><body>${d.body}</body></html>`,
    );
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** `n` paragraphs of prose about `what`. */
export const prose = (what: string, n = 3) =>
  Array.from(
    { length: n },
    (_, i) => `<p>${what}, paragraph ${i + 1}, long enough to be read as a paragraph of the book.</p>`,
  ).join('');

/**
 * An EPUB 3 nav three levels deep: a label without a link ("Part One") over chapters with fragments
 * into the middle of one file (one anchor inside a paragraph), a hidden list, two entries leading to
 * the same heading, a link to the web (not the book).
 */
export function nestedNavEpub(): Promise<Buffer> {
  const docs: ContentDocument[] = [
    { name: 'front.xhtml', body: `<h1>Front Matter</h1>${prose('Front')}` },
    {
      name: 'part1.xhtml',
      body: `<section id="p1"><h1>Part One</h1>${prose('Opening of part one', 1)}<section id="c1"><h2>Chapter 1</h2>${prose('Chapter 1')}<h3 id="c1s1">1.1 First Section</h3>${prose('Section 1.1')}<p>Some text <a id="c1s2"/>and a section that starts inside a paragraph.</p>${prose('Section 1.2')}</section><section id="c2"><h2>Chapter 2</h2>${prose('Chapter 2')}<h3 id="c2s1">2.1 Only Section</h3>${prose('Section 2.1')}</section></section>`,
    },
    {
      name: 'c3.xhtml',
      body: `<h2 id="top">Chapter 3</h2>${prose('Chapter 3')}<h3 id="c3s1">3.1 Deep</h3>${prose('Section 3.1')}`,
    },
    { name: 'end.xhtml', body: `<h1>Afterword</h1>${prose('Afterword')}` },
  ];
  const nav = `<ol>
    <li><a href="front.xhtml">Front Matter</a></li>
    <li><span>Part One</span>
      <ol>
        <li><a href="part1.xhtml#c1">Chapter 1</a>
          <ol>
            <li><a href="part1.xhtml#c1s1">1.1 First Section</a></li>
            <li><a href="part1.xhtml#c1s2">1.2 Second Section</a></li>
          </ol>
        </li>
        <li><a href="part1.xhtml#c2">Chapter 2</a>
          <ol hidden="hidden"><li><a href="part1.xhtml#c2s1">2.1 Only Section</a></li></ol>
        </li>
        <li><a href="c3.xhtml">Chapter 3</a>
          <ol><li><a href="c3.xhtml#top">Chapter 3, its heading</a></li><li><a href="c3.xhtml#c3s1">3.1 Deep</a></li></ol>
        </li>
      </ol>
    </li>
    <li><a href="http://example.com/">A web page is not the book</a></li>
    <li><a href="end.xhtml">Afterword</a></li>
  </ol>`;
  return makeEpub(docs, { nav }, 'Nested Nav');
}

/** An EPUB 2 NCX of three books of two chapters of one verse each; "Book 2" has no target of its own. */
export function nestedNcxEpub(): Promise<Buffer> {
  const docs: ContentDocument[] = [1, 2, 3].map((n) => ({
    name: `book${n}.xhtml`,
    body: `<h1>Book ${n}</h1>${prose(`Book ${n}`, 1)}${[1, 2]
      .map(
        (c) =>
          `<h2 id="b${n}c${c}">Chapter ${n}.${c}</h2>${prose(`Chapter ${n}.${c}`, 2)}<h3 id="b${n}c${c}v">Verse ${n}.${c}</h3>${prose(`Verse ${n}.${c}`, 1)}`,
      )
      .join('')}`,
  }));
  const point = (id: string, label: string, src: string | undefined, inner = '') =>
    `<navPoint id="${id}"><navLabel><text>${label}</text></navLabel>${src ? `<content src="${src}"/>` : ''}${inner}</navPoint>`;
  const ncx = [1, 2, 3]
    .map((n) =>
      point(
        `b${n}`,
        `Book ${n}`,
        n === 2 ? undefined : `book${n}.xhtml`,
        [1, 2]
          .map((c) =>
            point(
              `b${n}c${c}`,
              `Chapter ${n}.${c}`,
              `book${n}.xhtml#b${n}c${c}`,
              point(`b${n}c${c}v`, `Verse ${n}.${c}`, `book${n}.xhtml#b${n}c${c}v`),
            ),
          )
          .join(''),
      ),
    )
    .join('');
  return makeEpub(docs, { ncx }, 'Nested NCX');
}

export const ULYSSES_EPISODES = [
  'I',
  'II',
  'III',
  'IV',
  'V',
  'VI',
  'VII',
  'VIII',
  'IX',
  'X',
  'XI',
  'XII',
  'XIII',
  'XIV',
  'XV',
  'XVI',
  'XVII',
  'XVIII',
];

/**
 * Ulysses as Standard Ebooks makes it: three parts, each a half-title file, holding the episodes
 * (named by roman numerals), one file each; the second episode of part II has two scenes.
 */
export function ulyssesEpub(): Promise<Buffer> {
  const parts = [ULYSSES_EPISODES.slice(0, 3), ULYSSES_EPISODES.slice(3, 15), ULYSSES_EPISODES.slice(15)];
  const docs: ContentDocument[] = [{ name: 'titlepage.xhtml', body: '<h1>Ulysses</h1><p>By James Joyce.</p>' }];
  const nav = parts
    .map((episodes, p) => {
      const part = ULYSSES_EPISODES[p]!;
      docs.push({ name: `part-${p + 1}.xhtml`, body: `<section epub:type="part"><h2>${part}</h2></section>` });
      const items = episodes.map((e) => {
        const scenes = e === 'V';
        docs.push({
          name: `episode-${e}.xhtml`,
          body: `<section epub:type="chapter"><h3>${e}</h3>${prose(`Episode ${e}`)}${scenes ? `<h4 id="scene-2">Scene two</h4>${prose('The second scene')}` : ''}</section>`,
        });
        const sub = scenes
          ? `<ol><li><a href="episode-V.xhtml">Scene one</a></li><li><a href="episode-V.xhtml#scene-2">Scene two</a></li></ol>`
          : '';
        return `<li><a href="episode-${e}.xhtml">${e}</a>${sub}</li>`;
      });
      return `<li><a href="part-${p + 1}.xhtml">${part}</a><ol>${items.join('')}</ol></li>`;
    })
    .join('');
  return makeEpub(docs, { nav: `<ol><li><a href="titlepage.xhtml">Titlepage</a></li>${nav}</ol>` }, 'Ulysses');
}

const MONTHS = 'January February March April May June July August September October November December'.split(' ');

/** Pepys's diary as Standard Ebooks makes it: ten years (labels) of months (files), the last year of five. */
export function pepysEpub(): Promise<Buffer> {
  const docs: ContentDocument[] = [];
  const years = Array.from({ length: 10 }, (_, y) => 1660 + y)
    .map((year) => {
      const items = MONTHS.slice(0, year === 1669 ? 5 : 12).map((m) => {
        docs.push({
          name: `${m.toLowerCase()}-${year}.xhtml`,
          body: `<h3>${m} ${year}</h3>${prose(`${m} ${year}`, 2)}`,
        });
        return `<li><a href="${m.toLowerCase()}-${year}.xhtml">${m}</a></li>`;
      });
      return `<li><span>${year}</span><ol>${items.join('')}</ol></li>`;
    })
    .join('');
  return makeEpub(docs, { nav: `<ol>${years}</ol>` }, 'The Diary of Samuel Pepys');
}

/** A DOCX with a Title, then two Heading 1 of two Heading 2 of one Heading 3 each. */
export function headingsDocx(): Buffer {
  const p = (style: string | undefined, text: string) =>
    `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
  const body = [
    p('Title', 'A Handbook'),
    p(undefined, 'A preface before any heading, long enough to be a paragraph of its own.'),
    ...[1, 2].flatMap((c) => [
      p('Heading1', `Chapter ${c}`),
      p(undefined, `Text of chapter ${c}, long enough to be a paragraph of its own here.`),
      ...[1, 2].flatMap((s) => [
        p('Heading2', `Section ${c}.${s}`),
        p(undefined, `Text of section ${c}.${s}, long enough to be a paragraph of its own.`),
        p('Heading3', `Subsection ${c}.${s}.1`),
        p(undefined, `Text of subsection ${c}.${s}.1, long enough to be a paragraph of its own.`),
      ]),
    ]),
  ].join('');
  return buildDocx({ body });
}

/** A Chinese novel in 卷 of 第N回, after a table of contents of its chapters. */
export function huiText(): string {
  const chapter = (n: string, title: string) =>
    `第${n}回\u3000${title}\n\n\u3000\u3000${title}的故事从这里开始，说了很长的一段话，这一段足够长，可以算作正文。\n\n\u3000\u3000后来又发生了许多事情，都写在这里，作为这一回的正文的第二段。\n`;
  return [
    '目录',
    '第一回\u3000甄士隐梦幻识通灵',
    '第二回\u3000贾夫人仙逝扬州城',
    '第三回\u3000托内兄如海酬训教',
    '',
    '卷一',
    '',
    chapter('一', '甄士隐梦幻识通灵'),
    chapter('二', '贾夫人仙逝扬州城'),
    '卷二',
    '',
    chapter('三', '托内兄如海酬训教'),
  ].join('\n');
}

/** A Russian novel of `parts` Часть, each of `chapters` numbered Глава, paragraphs between blank lines. */
export function glavaText(parts: number, chapters: number): string {
  return Array.from({ length: parts }, (_, p) =>
    [
      `Часть ${['первая', 'вторая', 'третья'][p]}`,
      ...Array.from({ length: chapters }, (_, c) => [
        `Глава ${p * chapters + c + 1}`,
        'Он вышел из дома рано утром, когда улицы были ещё пусты, и долго шёл вдоль реки.',
        'К вечеру он вернулся, усталый и молчаливый, и никому ничего не сказал о том дне.',
      ]).flat(),
    ].join('\n\n'),
  ).join('\n\n');
}

/** The same Russian novel as Word 95 writes it (one paragraph a line, windows-1251, a Cyrillic font). */
export function glavaWord95(chapters: number): Buffer {
  const main = glavaText(1, chapters).replace(/\n\n/g, '\r') + '\r';
  return compoundFile({
    WordDocument: word6Stream({
      main,
      codePage: 'windows-1251',
      fonts: [{ name: 'Times New Roman Cyr', charset: 204 }],
      normalStyle: { font: 0 },
    }),
  });
}

/** A collection of stories, each under its title standing alone between blank lines. */
export function storyCollectionText(titles: string[]): string {
  const story = (title: string) =>
    `${title}\n\n${'\u3000\u3000很久很久以前，在一个遥远的国家里，住着一位国王和他的女儿，国王的女儿非常美丽，连见多识广的太阳每次照在她的脸上时，都会对她的美丽感到惊诧不已。\n'.repeat(4)}`;
  return ['格林童话', '', ...titles.map(story)].join('\n');
}
