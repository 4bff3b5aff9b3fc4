import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectLanguage, sampleText } from './detect.ts';

const CORPUS = process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../../../..', '../shared/corpus');

describe('detectLanguage', () => {
  it('is null-safe and falls back to en for nothing reliable', () => {
    for (const input of [null, undefined, '', '   ', [], ['', '']]) {
      expect(detectLanguage(input)).toMatchObject({ code: 'en', confidence: 0, reliable: false });
    }
    expect(detectLanguage('12345 !!! ???').reliable).toBe(false);
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
    ];
    for (const [text, code] of cases) expect(detectLanguage(text).code, text).toBe(code);
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
