/**
 * Text of another code page read as Latin-1 or Windows-1252: found by what the text as read does
 * that real text does not, read in the code page that takes that away, and never found in real
 * Latin-1 text. Also the text formats that can carry it: a .txt converted to UTF-8 from the wrong
 * code page, a Word 6 file whose font said "Western" over Cyrillic letters.
 */
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { detectBookLanguage } from '../language/detect.ts';
import { bookText } from './builder.ts';
import { docParser } from './doc/doc.ts';
import { compoundFile, word6Stream } from './doc/doc-fixture.ts';
import { readFileMetadata } from './metadata/metadata.ts';
import { detectMojibake, MOJIBAKE_CODE_PAGES, recode, repairIfBetter, repairMojibakeText } from './mojibake.ts';
import { txtParser } from './txt/txt.ts';

/** Texts of a page or so, each with the code page it was written in. */
const WRITTEN: [string, string, string][] = [
  [
    'ru',
    'windows-1251',
    'Не очень краткое введение в теорию вероятностей. В этой главе мы рассмотрим основные понятия и определения, которые понадобятся нам в дальнейшем. Случайная величина — это функция, заданная на пространстве элементарных исходов. Её распределение полностью описывает поведение величины.',
  ],
  [
    'ru',
    'koi8-r',
    'Не очень краткое введение в теорию вероятностей. В этой главе мы рассмотрим основные понятия и определения, которые понадобятся нам в дальнейшем.',
  ],
  [
    'uk',
    'windows-1251',
    'Бабаки живуть у степах і лісостепах. Їхні нори мають кілька виходів, а взимку звірі впадають у сплячку. Ґрунт навколо нір завжди пухкий, і це добре видно навесні.',
  ],
  [
    'bg',
    'windows-1251',
    'Програмата на клуба включва пътувания до планините и морето. Всеки член може да предложи маршрут, който ще бъде обсъден на общото събрание през пролетта.',
  ],
  [
    'el',
    'windows-1253',
    'Η ελληνική γλώσσα είναι μία από τις αρχαιότερες γλώσσες της Ευρώπης. Ο πρώτος τόμος περιέχει τα κείμενα της κλασικής εποχής και ένα σύντομο σχόλιο για κάθε έργο.',
  ],
  [
    'el',
    'iso-8859-7',
    'Η ελληνική γλώσσα είναι μία από τις αρχαιότερες γλώσσες της Ευρώπης. Ο πρώτος τόμος περιέχει τα κείμενα της κλασικής εποχής.',
  ],
  [
    'cs',
    'windows-1250',
    'Příliš žluťoučký kůň úpěl ďábelské ódy. Ledňáček říční loví ryby v čistých potocích a řekách, kde hnízdí v norách vyhrabaných v hlinitých březích.',
  ],
  [
    'pl',
    'windows-1250',
    'Zażółć gęślą jaźń. W tym rozdziale omówimy najważniejsze pojęcia, które będą nam potrzebne w dalszej części książki, oraz przedstawimy krótką historię zagadnienia.',
  ],
  [
    'hu',
    'iso-8859-2',
    'Árvíztűrő tükörfúrógép. A magyar nyelv az uráli nyelvcsaládba tartozik, és sok különleges hangja van, amelyeket a helyesírás ékezetes betűkkel jelöl. A főváros Budapest, ahol több mint másfél millió ember él; a legnagyobb tó a Balaton, amelyet nyáron sokan keresnek fel. Az ősi mondák szerint a honfoglalók hét törzse érkezett a Kárpát-medencébe, és a vezérek vérszerződést kötöttek egymással. Később Szent István király felvette a kereszténységet, és megalapította az önálló magyar államot, amely évszázadokon át fennmaradt. Ma is ünnepeljük őt minden évben.',
  ],
  [
    'tr',
    'windows-1254',
    'İstanbul’da çok güzel bir gün geçirdik. Şimdi değil, belki yarın akşam tekrar buluşuruz; ağaçların altında oturup kısa bir şiir okuruz. Işıklar söndüğünde kıyıdaki balıkçılar ağlarını toplar, çaycı da son bardakları yıkar.',
  ],
  [
    'lt',
    'windows-1257',
    'Lietuvių kalba yra viena seniausių gyvų indoeuropiečių kalbų. Šioje knygoje aptariami svarbiausi jos gramatikos bruožai ir žodžių darybos ypatumai, taip pat įvairių tarmių skirtumai.',
  ],
  [
    'he',
    'windows-1255',
    'השפה העברית היא שפה שמית ממשפחת השפות האפרו-אסיאתיות. בספר זה נלמד את יסודות הדקדוק ואת תולדות השפה מימי המקרא ועד ימינו.',
  ],
  [
    'ar',
    'windows-1256',
    'اللغة العربية هي إحدى أكثر اللغات انتشارا في العالم. في هذا الفصل نتعرف على أساسيات النحو والصرف وتاريخ الكتابة العربية.',
  ],
];

/** Real text that a wrong guess would spoil: accents of every Latin-1 language, symbols, other scripts. */
const REAL = [
  "Il était une fois, dans un château près de la forêt, une princesse qui rêvait d'aventures. Où qu'elle allât, les oiseaux chantaient ; l'été passé, elle écrivit à sa sœur Noëlle une lettre pleine de naïveté. « Ça ira », disait-elle à l'âne.",
  'Über allen Gipfeln ist Ruh, in allen Wipfeln spürest du kaum einen Hauch; die Vögelein schweigen im Walde. Warte nur, balde ruhest du auch. Größe, Mäßigung und Übung führen zur Schönheit.',
  'Það var einu sinni kóngur og drottning í ríki sínu; þau áttu sér eina dóttur sem hét Ása. Hún var fríð sýnum og vel að sér gjör. Þegar hún var átján ára gömul fór hún út í skóginn og sá þar ókunnugan mann ríða að sér.',
  'En un lugar de la Mancha, de cuyo nombre no quiero acordarme, no ha mucho tiempo que vivía un hidalgo de los de lanza en astillero, adarga antigua, rocín flaco y galgo corredor. ¿Qué más decir? ¡Año tras año, señor!',
  'Não há nada como a minha terra, onde canta o sabiá; as aves que aqui gorjeiam não gorjeiam como lá. Nosso céu tem mais estrelas, e a informação chegará à população.',
  'Der var engang en prinsesse, der boede i et slot ved havet. Hun så på bølgerne hver dag og drømte om en rejse til øerne langt væk, hvor solen altid skinnede.',
  "L'enciclopèdia és una obra de referència que recull informació sobre tots els camps del coneixement. La col·lecció inclou articles sobre història, ciència i art.",
  'Let x × y ≤ 2 ± 0.5 and a ÷ b = ½; the angle is 45° and the area 3 m² (about 10 ft²). Prices: £5, ¥300, €4 — see § 3.2 and ¶ 4. © 2020 ACME® Inc.™ «quoted» ¿qué? ¡sí!',
  'Tiếng Việt là ngôn ngữ chính thức của Việt Nam. Trường học ở Việt Nam dạy chữ Quốc ngữ; tôi ăn phở bò mỗi sáng.',
  // A symbol font read as WinAnsi: x ∈ A, y ∉ B, A ∩ B ⊂ C ⇒ f(x) ≥ 0, ∑ a ∫ f(x) dx ≤ ∞.
  'If x Î A and y Ï B, then A Ç B Ì C Þ f(x) ³ 0, and å a ò f(x) dx £ ¥ for every such function.',
  'Résumé of Zoë Brontë-Šmíd: naïve café owner in Zürich, São Paulo and Reykjavík (Þórsmörk); she speaks Français, Español, Íslenska and Čeština.',
  ...WRITTEN.map(([, , text]) => text),
];

const windows1252 = new TextDecoder('windows-1252');
const asWindows1252 = (text: string, codePage: string) => windows1252.decode(iconv.encode(text, codePage));
const asLatin1 = (text: string, codePage: string) => iconv.encode(text, codePage).toString('latin1');

describe('text in another code page read as Latin-1', () => {
  for (const [language, codePage, text] of WRITTEN) {
    it(`${language} in ${codePage}: found and read back, whether read as Windows-1252 or as Latin-1`, () => {
      for (const read of [asWindows1252(text, codePage), asLatin1(text, codePage)]) {
        const verdict = detectMojibake(read);
        expect(verdict, read).toBeDefined();
        expect(recode(read, verdict!.codePage)).toBe(text);
      }
    });
  }

  it('finds nothing in real text, and no code page is taken for any of its lines', () => {
    for (const text of REAL) {
      expect(detectMojibake(text), text).toBeUndefined();
      for (const codePage of MOJIBAKE_CODE_PAGES) expect(repairIfBetter(text, codePage)).toBe(text);
    }
  });

  it('decides nothing on a few words, but a larger sample decides for them', () => {
    const title = asWindows1252('Глава 1', 'windows-1251');
    expect(title).toBe('Ãëàâà 1');
    expect(detectMojibake(title)).toBeUndefined();
    expect(repairIfBetter(title, 'windows-1251')).toBe('Глава 1');
  });
});

/** A Russian text with a French line in it, as a UTF-8 file made from Windows-1251 read as Windows-1252. */
const RUSSIAN = [
  'Не очень краткое введение',
  '',
  'Теория вероятностей изучает закономерности, возникающие при массовых случайных явлениях.',
  'Если один и тот же опыт повторяется много раз при неизменных условиях, то частота появления',
  'события устанавливается около некоторого числа, которое называют вероятностью.',
  '',
  'В этой главе мы рассмотрим основные понятия и определения, которые понадобятся нам в дальнейшем.',
];
const FRENCH = "« La théorie des probabilités n'est que le bon sens réduit au calcul. » (Laplace)";

describe('text files and Word documents stored in the wrong code page', () => {
  it('a UTF-8 .txt of Windows-1251 read as Windows-1252 reads as Russian; a real French line in it stays', async () => {
    const lines = ['Title: Не очень краткое введение', 'Author: И. И. Иванов', '', ...RUSSIAN.slice(2), '', FRENCH];
    const mojibake = lines.map((line) => (line === FRENCH ? line : asWindows1252(line, 'windows-1251'))).join('\n');
    expect(mojibake).toContain('Íå î÷åíü êðàòêîå');
    const book = await txtParser.parse(Buffer.from(mojibake, 'utf8'));
    const text = bookText(book);
    expect(text).toContain('Теория вероятностей изучает закономерности');
    expect(text).toContain(FRENCH);
    expect(detectBookLanguage(book)).toMatchObject({ code: 'ru', detected: 'ru' });
    // The title and author the upload wizard is given are read the same way.
    expect(await readFileMetadata(Buffer.from(mojibake, 'utf8'), 'txt')).toMatchObject({
      title: 'Не очень краткое введение',
      author: 'И. И. Иванов',
    });
  });

  it('a real Latin-1 text file is left as it is', async () => {
    const book = await txtParser.parse(Buffer.from(REAL.slice(0, 7).join('\n\n'), 'latin1'));
    expect(bookText(book)).toContain('Það var einu sinni kóngur');
    expect(book.warnings.join('\n')).not.toMatch(/windows-12|koi8|iso-8859/);
  });

  it('repairs only lines that read better: whole-text verdict, line by line', () => {
    const text = `${asWindows1252(RUSSIAN.join(' '), 'windows-1251')}\n${FRENCH}\nÃëàâà 2`;
    expect(repairMojibakeText(text)).toEqual({
      codePage: 'windows-1251',
      text: `${RUSSIAN.join(' ')}\n${FRENCH}\nГлава 2`,
    });
  });

  it('a Word 6 document whose font said Western over Cyrillic letters reads as Russian, its notes too', async () => {
    const paragraphs = RUSSIAN.filter(Boolean);
    const main = `${paragraphs[0]}\r${paragraphs.slice(1).join(' ')}\u0002\rSee Laplace, 1814.\r`;
    const doc = compoundFile({
      WordDocument: word6Stream({
        main,
        codePage: 'windows-1251',
        lid: 0x409,
        // A Russian font of the time that declared the ANSI character set and does not say "Cyr".
        fonts: [{ name: 'Pragmatica', charset: 0 }],
        normalStyle: { font: 0 },
        footnotes: ['Примечание переводчика: здесь речь идет о частоте, а не о вероятности.'],
      }),
    });
    const book = await docParser.parse(doc);
    const text = book.chapters.flatMap((c) => c.blocks.map((b) => b.text)).join('\n');
    expect(text).toContain('Теория вероятностей изучает закономерности');
    expect(text).toContain('Примечание переводчика: здесь речь идет о частоте');
    expect(text).toContain('See Laplace, 1814.');
    expect(detectBookLanguage(book).code).toBe('ru');
  });
});
