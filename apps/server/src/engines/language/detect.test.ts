import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectBookLanguage, detectLanguage, sampleText } from './detect.ts';

const CORPUS = process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../../../..', '../shared/corpus');
const WILD = path.join(CORPUS, '../wild');

describe('detectLanguage', () => {
  it('is null-safe and falls back to en for nothing reliable', () => {
    for (const input of [null, undefined, '', '   ', [], ['', '']]) {
      expect(detectLanguage(input)).toMatchObject({ code: 'en', detected: 'und', confidence: 0, reliable: false });
    }
    expect(detectLanguage('12345 !!! ???').reliable).toBe(false);
  });

  it('says und when a few words cannot tell', () => {
    for (const text of ['Reduced test-case', 'Table des matières', 'Page 1', '東京', 'Hello World']) {
      expect(detectLanguage(text), text).toMatchObject({ detected: 'und', reliable: false });
    }
  });

  it('detects short samples', () => {
    const cases: [string, string][] = [
      ['The quick brown fox jumps over the lazy dog while the children watch.', 'en'],
      ['Le petit prince regardait les étoiles pendant que le renard dormait.', 'fr'],
      ['Der kleine Hund spielt im Garten mit dem roten Ball und ist glücklich.', 'de'],
      ['El niño juega en el parque con sus amigos todos los días después de la escuela.', 'es'],
      ['Мальчик играет в парке со своими друзьями каждый день после школы.', 'ru'],
      ['يلعب الولد في الحديقة مع أصدقائه كل يوم بعد المدرسة.', 'ar'],
      ['这个孩子每天放学后都和朋友们在公园里玩。', 'zh'],
      ['這個孩子每天放學後都和朋友們在公園裡玩。', 'zh-TW'],
      ['この子は毎日学校の後で友達と公園で遊んでいます。', 'jp'],
      ['이 아이는 매일 방과 후에 친구들과 공원에서 놀아요.', 'ko'],
      ['这是一个用来测试nodejs解析Word文档.doccccc\nThis is a test for parsing the Word file in node.', 'zh'],
      ['کودکان هر روز بعد از مدرسه با دوستانشان در پارک بازی می‌کنند و گاهی تا شب آنجا می‌مانند.', 'fa'],
      ['بچے ہر روز اسکول کے بعد اپنے دوستوں کے ساتھ پارک میں کھیلتے ہیں اور شام تک وہاں رہتے ہیں۔', 'ur'],
      ['मुले रोज शाळेनंतर आपल्या मित्रांसोबत बागेत खेळतात आणि संध्याकाळपर्यंत तिथेच असतात. हे त्यांचे आवडते ठिकाण आहे.', 'mr'],
      ['बच्चे हर दिन स्कूल के बाद अपने दोस्तों के साथ पार्क में खेलते हैं और शाम तक वहीं रहते हैं।', 'hi'],
      ['Watoto wanacheza katika bustani pamoja na marafiki zao kila siku baada ya shule, na wanarudi nyumbani.', 'sw'],
      ['Bocah-bocah dolanan ing taman karo kanca-kancane saben dina sawise sekolah, lan bali menyang omah.', 'jv'],
      ['Bọn trẻ chơi trong công viên với bạn bè mỗi ngày sau giờ học và về nhà khi trời tối.', 'vi'],
      ['শিশুরা প্রতিদিন স্কুলের পরে তাদের বন্ধুদের সাথে পার্কে খেলা করে এবং সন্ধ্যায় বাড়ি ফেরে।', 'bn'],
    ];
    for (const [text, code] of cases) expect(detectLanguage(text).code, text).toBe(code);
  });

  it('names a language outside the 26 by its own code, never as a wrong one', () => {
    const cases: [string, string][] = [
      ['ירושלים היא עיר עתיקה השוכנת בהרי יהודה, וברחובותיה הולכים אנשים רבים.', 'he'],
      ['Η Αθήνα είναι η πρωτεύουσα της Ελλάδας και μία από τις αρχαιότερες πόλεις του κόσμου.', 'el'],
      ['Budapest Magyarország fővárosa, a Duna két partján fekszik, és hídjai híresek.', 'hu'],
      ['Київ є столицею України, і його історія налічує понад тисячу років.', 'uk'],
      [
        'Tallinn on Eesti pealinn ja asub Soome lahe ääres. Vanalinna kitsastel tänavatel jalutavad turistid ning kohvikutes juuakse kuuma šokolaadi. Talvel on päevad lühikesed ja õhtuti sajab sageli lund.',
        'et',
      ],
      ['Praha je hlavní město České republiky a leží na řece Vltavě, večer se lidé procházejí.', 'cs'],
      ['София е столицата на България и се намира в подножието на планината Витоша.', 'bg'],
      ['In principio creavit Deus caelum et terram. Terra autem erat inanis et vacua.', 'la'],
    ];
    for (const [text, detected] of cases) {
      expect(detectLanguage(text), text).toMatchObject({ code: 'en', detected, reliable: false });
    }
  });

  it('reads only words: table rules, numbers, paths and code names say nothing', () => {
    // tinyld alone took a single '|' for a Devanagari danda and answered Hindi.
    const form = [
      '|DATE :                   |12/12/97          |',
      '|A L’ATTENTION DE :       |M. Berthod        |',
      '|ORGANISME :              |Société Applicolor|',
      '|N° DE TÉLÉCOPIEUR :      |04 79 83 20 45    |',
      '|PAGES, Y COMPRIS CELLE-CI :|1               |',
      '|DE LA PART DE :          |Guy Lecole        |',
      'Monsieur,',
      'Suite à notre récent contact téléphonique, j’ai le plaisir de confirmer notre rendez-vous.',
    ].join('\n');
    expect(detectLanguage(form).detected).toBe('fr');
    const setup = [
      '[Params]',
      'WndTitle = Установка Microsoft Word 6.0',
      'WndMess = Запуск программы установки Word...',
      'CmdLine = acmsetup /T setup.stf /S %s %s',
      'Require31 = Данному приложению требуется новая версия Microsoft Windows.',
      '[Files]',
      'mssetup.dl_ = mssetup.dll',
      'word_bb.dl_ = word_bb.dll',
    ].join('\n');
    expect(detectLanguage(setup).detected).toBe('ru');
  });

  it('goes by the bulk of the text, whatever samples of other scripts it holds', () => {
    const fable =
      'A grasshopper spent the summer hopping about in the sun and singing to his heart’s content. One day an ant went hurrying by, looking very hot and weary. “Why are you working on such a lovely day?” said the grasshopper. ';
    const japanese = '「私は冬の餌を集めています。同じことをすることをお勧めします」とアリは言いました。';
    expect(detectLanguage(`${fable}\n${japanese}\n${fable}`).detected).toBe('en');
    const sampler = [
      'Encoding: Unicode sample - BOM/no-BOM variants',
      'Purpose: viewer BOM detection and Unicode rendering in text and hex.',
      '01: Latin: café naïve façade jalapeño año Niño',
      '04: Greek: Ελληνικά ΑΒΓΔ Ωμέγα π',
      '05: Cyrillic: Привет мир',
      '06: Hebrew: שלום עולם',
      '07: Arabic: مرحبا بالعالم',
      '08: Devanagari: नमस्ते दुनिया',
      '10: CJK: 漢字 日本語 한글',
      '18: IPA-ish: ʃ ʒ ŋ θ ð',
      '19: Vietnamese: Tôi ăn phở bò.',
      '20: Turkish: İstanbul, İzmir, Çeşme, şeker.',
      '22: Polish: Zażółć gęślą jaźń.',
      '24: End marker: EOF',
    ].join('\n');
    expect(detectLanguage(sampler).detected).toBe('en');
    const lorem =
      'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. ';
    expect(['la', 'und']).toContain(detectLanguage(lorem.repeat(5)).detected);
    const vulgate =
      'In diebus Assueri qui regnavit ab India usque Aethiopiam super centum viginti septem provincias. Quando sedit in solio regni sui, Susan civitas regni eius exordium fuit. ';
    const boilerplate = 'This eBook is for the use of anyone anywhere at no cost and with almost no restrictions. ';
    expect(detectLanguage(vulgate.repeat(7) + boilerplate.repeat(3)).detected).toBe('la');
  });

  it('reads Russian typed with Latin look-alike letters as Russian', () => {
    const russian =
      'Пёpлы были в пyти yже тpи дня, и никтo нe знaл, кyдa oни идyт. Baся скaзaл, чтo нaдo oтдoхнyть, и вce сeли y дopoги. ';
    expect(detectLanguage(russian.repeat(3)).detected).toBe('ru');
  });

  it('takes tables into account (a protocol laid out in tables is still English)', () => {
    const book = {
      chapters: [
        {
          blocks: [
            { type: 'table', text: 'Study title | A randomized trial of two treatments for adults with the infection' },
            { type: 'table', text: 'Primary objective | To compare the time to recovery between the two study arms' },
            { type: 'code', text: 'for (int i = 0; i < n; i++) { printf("%d", i); }' },
          ],
        },
      ],
    };
    expect(detectBookLanguage(book).detected).toBe('en');
  });

  it('decides from samples spread over the body, not the front matter', () => {
    const front = 'This eBook is for the use of anyone anywhere at no cost and with almost no restrictions. '.repeat(
      20,
    );
    const body =
      '話說天下大勢，分久必合，合久必分。周末七國分爭，並入於秦。及秦滅之後，楚、漢分爭，又並入於漢。'.repeat(400);
    const result = detectLanguage(front + body);
    expect(result.code).toBe('zh-TW');
    expect(result.reliable).toBe(true);
    expect(sampleText(front + body).length).toBe(16);
  });

  it.skipIf(!existsSync(CORPUS))('detects Chinese in the mixed zh/en Debian guide text', () => {
    // Commands and English headings are everywhere, but the prose is Chinese.
    const mixed = readFileSync(path.join(CORPUS, 'txt/zh-sanguo-yanyi-gbk.txt'));
    const text = new TextDecoder('gb18030').decode(mixed).slice(0, 20000);
    const code = 'sudo apt-get install debmake dpkg-dev build-essential; git clone https://example.org/pkg.git\n';
    expect(detectLanguage(text.slice(0, 3000) + code.repeat(40)).code).toBe('zh');
  });
});

describe.skipIf(!existsSync(WILD))('detectLanguage on every reference text of ../shared/wild', () => {
  // The references are what independent tools extracted: detection is tested on them directly,
  // whatever the state of our own PDF, DOC and EPUB extraction.
  const manifest = readFileSync(path.join(WILD, 'MANIFEST.md'), 'utf8');
  const languages = new Map<string, string>();
  for (const m of manifest.matchAll(/^\| (\w+)\/`([^`]+)` \| [^|]+ \| ([\w-]+) \|/gm))
    languages.set(`${m[1]}/${m[2]}`, m[3]!);
  /** Where more than the manifest's language is right. */
  const alsoRight: Record<string, string[]> = {
    'pdf/broken-xref-keyword-missing.pdf': ['und'], // 'Reduced test-case'
    'docx/jp-ruby-tokyo.docx': ['und'], // '東京': two characters, Japanese or Chinese
    'doc/de-en-bilingual-translation-memory.doc': ['en'], // half German, half English
  };
  const references = ['pdf', 'epub', 'doc', 'docx', 'txt'].flatMap((dir) =>
    readdirSync(path.join(WILD, dir))
      .filter((f) => f.endsWith('.ref.txt'))
      .map((f) => `${dir}/${f.slice(0, -'.ref.txt'.length)}`),
  );

  it('finds the references', () => expect(references.length).toBeGreaterThanOrEqual(50));

  it.each(references)('%s', (file) => {
    const detection = detectLanguage(readFileSync(path.join(WILD, `${file}.ref.txt`), 'utf8'));
    const wanted = [languages.get(file)!, ...(alsoRight[file] ?? [])];
    expect(wanted, JSON.stringify(detection.scores)).toContain(detection.detected);
  });
});
