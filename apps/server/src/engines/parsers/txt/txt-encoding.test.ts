import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeText } from './txt-encoding.ts';

/** Short prose, a few hundred bytes each: the size of most of the legacy files that go wrong. */
const PROSE = {
  hu: 'Budapest Magyarország fővárosa, a Duna két partján fekszik. A város hídjai és fürdői híresek, a régi épületek között sok turista sétál. Ősszel a levelek sárgák és vörösek lesznek, és a folyó fölött köd száll.',
  cs: 'Praha je hlavní město České republiky a leží na řece Vltavě. Staré město má úzké uličky, kostely a mnoho malých obchodů. Večer se lidé procházejí po Karlově mostě a dívají se na hrad.',
  pl: 'Warszawa jest stolicą Polski i leży nad Wisłą. Stare Miasto zostało odbudowane po wojnie, a dziś spacerują tam tłumy turystów. Jesienią liście żółkną, a wieczory są chłodne i ciche.',
  uk: 'Київ - столиця України, місто на берегах Дніпра. Його історія налічує понад тисячу років, і тут є багато церков, парків та музеїв. Восени каштани жовтіють, а ввечері на вулицях грають музиканти. Ґанок старого будинку був увесь у квітах.',
  ru: 'Москва - столица России, крупный город на реке Москве. Летом в парках гуляют семьи с детьми, а зимой на улицах лежит снег. Вечером огни большого города отражаются в реке, и по набережной медленно идут прохожие. Я люблю этот город.',
  bg: 'София е столицата на България и се намира в подножието на планината Витоша. Градът е известен със своите църкви, пазари и широки булеварди. През лятото хората пият кафе в градините и разговарят до късно вечерта.',
  el: 'Η Αθήνα είναι η πρωτεύουσα της Ελλάδας και μία από τις αρχαιότερες πόλεις του κόσμου. Άνθρωποι από όλο τον κόσμο έρχονται για να δουν την Ακρόπολη. Το καλοκαίρι ο ήλιος καίει και οι δρόμοι γεμίζουν με επισκέπτες.',
  he: 'ירושלים היא עיר עתיקה השוכנת בהרי יהודה. ברחובות העיר העתיקה הולכים אנשים רבים, ובשווקים מוכרים פירות, תבלינים ובגדים. בערב השמש שוקעת והאבנים הלבנות מאדימות.',
  ar: 'القاهرة هي عاصمة مصر وأكبر مدنها، وتقع على ضفاف نهر النيل. في شوارعها القديمة أسواق ومساجد ومقاه كثيرة. يزور المدينة كل عام عدد كبير من السياح لرؤية الأهرامات والمتاحف.',
  et: 'Tallinn on Eesti pealinn ja asub Soome lahe ääres. Vanalinna kitsastel tänavatel jalutavad turistid ning kohvikutes juuakse kuuma šokolaadi. Talvel on päevad lühikesed ja õhtuti sajab sageli lund. Žürii valis parima laulu.',
  lt: 'Vilnius yra Lietuvos sostinė, įsikūrusi prie Neries upės. Senamiestyje daug bažnyčių, kiemelių ir siaurų gatvių. Rudenį medžių lapai pagelsta, o vakarai būna vėsūs ir ramūs.',
  vi: 'Hà Nội là thủ đô của Việt Nam, nằm bên bờ sông Hồng. Phố cổ có nhiều con đường nhỏ, quán cà phê và chợ đông người. Buổi sáng, người dân thường ăn phở và uống trà nóng trước khi đi làm.',
  tr: "İstanbul, Boğaziçi'nin iki yakasında kurulmuş büyük bir şehirdir. Eski çarşılarında baharat, halı ve çay satılır. Akşamları vapurlar denizde gidip gelirken martılar gökyüzünde uçar.",
  fr: "Le marché ouvre tôt le matin, près de l'église. On y trouve des légumes frais, du pain chaud et des fleurs. « Ça sent bon ! » dit l'enfant à sa mère, qui sourit déjà.",
  en: '“Are you coming?” she asked. It’s a long walk to the harbour — but the evening is fine, and we’ll be back before dark.',
  jp: '東京は日本の首都で、たくさんの人が住んでいます。春になると公園の桜が咲き、人々は花見を楽しみます。夜の街はとても明るく、電車は遅くまで走っています。',
  ko: '서울은 대한민국의 수도이며 한강을 따라 펼쳐진 큰 도시입니다. 봄에는 공원마다 벚꽃이 피고 많은 사람들이 산책을 합니다. 밤이 되면 도시의 불빛이 강물에 비칩니다.',
  zh: '北京是中国的首都，也是一座历史悠久的城市。春天的时候，公园里开满了花，很多人在湖边散步。晚上，街道两旁的灯光非常明亮。',
  zhTW: '臺北是一座熱鬧的城市，街道上有許多小吃攤和書店。夏天的午後常常下雨，人們就躲進咖啡館裡聊天。到了晚上，夜市裡擠滿了遊客。',
};

/**
 * windows-1258 writes Vietnamese tones as combining marks after a base letter it has (ô, ơ, ư, ă...):
 * decompose the tones only, as Vietnamese Windows text is.
 */
function toWindows1258(text: string): Buffer {
  const tones = /[\u0300\u0301\u0303\u0309\u0323]/gu;
  const decomposed = text
    .normalize('NFD')
    .replace(
      /\P{M}\p{M}*/gu,
      (letter) => letter.replace(tones, '').normalize('NFC') + (letter.match(tones) ?? []).join(''),
    );
  return iconv.encode(decomposed, 'windows1258');
}

/** ISO-2022-JP: EUC-JP's two-byte characters with the high bits cleared, between ESC $ B and ESC ( B. */
function toIso2022Jp(text: string): Buffer {
  const euc = iconv.encode(text, 'euc-jp');
  const out: number[] = [];
  let wide = false;
  for (let i = 0; i < euc.length; i++) {
    const byte = euc[i]!;
    if (byte >= 0x80 !== wide) {
      out.push(...(byte >= 0x80 ? [0x1b, 0x24, 0x42] : [0x1b, 0x28, 0x42]));
      wide = byte >= 0x80;
    }
    out.push(byte & 0x7f);
  }
  if (wide) out.push(0x1b, 0x28, 0x42);
  return Buffer.from(out);
}

describe('TXT encodings of short prose', () => {
  const cases: [keyof typeof PROSE, string, string][] = [
    ['hu', 'windows1250', 'windows-1250'],
    ['cs', 'windows1250', 'windows-1250'],
    ['pl', 'windows1250', 'windows-1250'],
    ['pl', 'iso88592', 'iso-8859-2'],
    ['cs', 'maccenteuro', 'x-mac-ce'],
    ['uk', 'windows1251', 'windows-1251'],
    ['ru', 'windows1251', 'windows-1251'],
    ['bg', 'windows1251', 'windows-1251'],
    ['ru', 'koi8-r', 'koi8-r'],
    ['uk', 'koi8-u', 'koi8-u'],
    ['ru', 'iso88595', 'iso-8859-5'],
    ['ru', 'maccyrillic', 'x-mac-cyrillic'],
    ['ru', 'cp866', 'ibm866'],
    ['el', 'windows1253', 'windows-1253'],
    ['el', 'iso88597', 'iso-8859-7'],
    ['he', 'windows1255', 'windows-1255'],
    ['ar', 'windows1256', 'windows-1256'],
    ['et', 'windows1257', 'windows-1257'],
    ['lt', 'windows1257', 'windows-1257'],
    ['tr', 'windows1254', 'windows-1254'],
    ['fr', 'windows1252', 'windows-1252'],
    ['en', 'windows1252', 'windows-1252'],
    ['jp', 'shift_jis', 'shift_jis'],
    ['jp', 'euc-jp', 'euc-jp'],
    ['ko', 'euc-kr', 'euc-kr'],
    ['zh', 'gbk', 'gb18030'],
    ['zh', 'gb18030', 'gb18030'],
    ['zhTW', 'big5', 'big5'],
  ];
  it.each(cases)('%s in %s', (language, iconvName, label) => {
    const text = PROSE[language];
    const bytes = iconv.encode(text, iconvName);
    expect(iconv.decode(bytes, iconvName), 'the test encodes what it means to').toBe(text);
    expect(decodeText(bytes)).toEqual({ text, encoding: label });
  });

  it('reads windows-1258 Vietnamese with its combining tones, composed', () => {
    const bytes = toWindows1258(PROSE.vi);
    expect(bytes.length).toBeLessThan(Buffer.byteLength(PROSE.vi));
    expect(decodeText(bytes)).toEqual({ text: PROSE.vi, encoding: 'windows-1258' });
  });

  it('reads 7-bit ISO-2022-JP, which UTF-8 would take for ASCII', () => {
    const bytes = toIso2022Jp(`README\n\n${PROSE.jp}\n`);
    expect(bytes.every((b) => b < 0x80)).toBe(true);
    expect(decodeText(bytes)).toEqual({ text: `README\n\n${PROSE.jp}\n`, encoding: 'iso-2022-jp' });
  });

  it('reads UTF-16 without a byte-order mark, either byte order', () => {
    for (const text of [`Title\r\n${PROSE.en}\r\n`, PROSE.ru, PROSE.zh]) {
      const le = Buffer.from(text, 'utf16le');
      const be = Buffer.from(le).swap16();
      expect(decodeText(le)).toEqual({ text, encoding: 'utf-16le' });
      expect(decodeText(be)).toEqual({ text, encoding: 'utf-16be' });
    }
  });

  it('keeps UTF-8 with one broken byte as UTF-8', () => {
    const bytes = Buffer.concat([Buffer.from(PROSE.fr.repeat(3)), Buffer.from([0xff]), Buffer.from(PROSE.fr)]);
    const decoded = decodeText(bytes);
    expect(decoded.encoding).toBe('utf-8');
    expect(decoded.text).toBe(`${PROSE.fr.repeat(3)}\ufffd${PROSE.fr}`);
  });

  it('decides a long file by its body, not by an English licence at its head', () => {
    const licence = 'This eBook is for the use of anyone anywhere at no cost and with almost no restrictions.\n'.repeat(
      600,
    );
    const text = licence + `${PROSE.uk}\n`.repeat(300);
    expect(decodeText(iconv.encode(text, 'koi8-u'))).toEqual({ text, encoding: 'koi8-u' });
  });
});
