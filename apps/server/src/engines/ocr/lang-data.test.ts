import { spawn } from 'node:child_process';
import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installFolder, MissingLanguageData, prepareLangFolder, traineddataPath } from './lang-data.ts';

const LANGS = ['eng', 'chi_sim', 'chi_tra', 'jpn'];
const MODULE = path.join(import.meta.dirname, 'lang-data.ts');
const folders: string[] = [];
const scratch = () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'yidu-lang-test-'));
  folders.push(folder);
  return folder;
};
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** The gzip magic bytes, read through whatever sits at the path: the data is really there. */
const isGzip = (file: string) =>
  readFileSync(file)
    .subarray(0, 2)
    .equals(Buffer.from([0x1f, 0x8b]));

/** Runs a script in a fresh Node process (Node strips the types of the imported .ts file). */
function node(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe("tesseract's language data folder", () => {
  it('replaces a link left dangling by a deleted install', () => {
    const folder = scratch();
    symlinkSync('/nonexistent/old-checkout/node_modules/jpn.traineddata.gz', path.join(folder, 'jpn.traineddata.gz'));
    prepareLangFolder(['jpn', 'chi_tra'], folder);
    for (const lang of ['jpn', 'chi_tra']) expect(isGzip(path.join(folder, `${lang}.traineddata.gz`))).toBe(true);
    expect(readdirSync(folder).sort()).toEqual(['chi_tra.traineddata.gz', 'jpn.traineddata.gz']);
  });

  it("replaces a link into another install and a copy that is not this install's data", () => {
    const folder = scratch();
    const other = path.join(scratch(), 'eng.traineddata.gz');
    writeFileSync(other, 'another install');
    symlinkSync(other, path.join(folder, 'eng.traineddata.gz'));
    writeFileSync(path.join(folder, 'chi_sim.traineddata.gz'), 'a truncated copy');
    prepareLangFolder(['eng', 'chi_sim'], folder);
    for (const lang of ['eng', 'chi_sim']) {
      const target = path.join(folder, `${lang}.traineddata.gz`);
      expect(readFileSync(target).equals(readFileSync(traineddataPath(lang)!))).toBe(true);
    }
    expect(readFileSync(other, 'utf8')).toBe('another install');
  });

  it('keeps a good copy (where links are refused) and refuses a language that is not installed', () => {
    const folder = scratch();
    copyFileSync(traineddataPath('eng')!, path.join(folder, 'eng.traineddata.gz'));
    prepareLangFolder(['eng'], folder);
    expect(isGzip(path.join(folder, 'eng.traineddata.gz'))).toBe(true);
    expect(() => prepareLangFolder(['kor'], folder)).toThrow(MissingLanguageData);
  });

  it('is safe when several processes prepare the same folder at once', { timeout: 60_000 }, async () => {
    const folder = scratch();
    for (const lang of LANGS)
      symlinkSync(`/nonexistent/${lang}.traineddata.gz`, path.join(folder, `${lang}.traineddata.gz`));
    // Another install's copies of the data, which the processes keep linking in (atomically) for the
    // others to repair: every file stays readable throughout, so a moment without the file, or with a
    // half-written one, fails a read.
    const foreign = scratch();
    for (const lang of LANGS) copyFileSync(traineddataPath(lang)!, path.join(foreign, `${lang}.traineddata.gz`));
    const script = `
      import { readFileSync, renameSync, symlinkSync } from 'node:fs';
      import { prepareLangFolder } from ${JSON.stringify(MODULE)};
      const langs = ${JSON.stringify(LANGS)};
      const file = (dir, lang) => dir + '/' + lang + '.traineddata.gz';
      for (let i = 0; i < 150; i++) {
        const lang = langs[i % langs.length];
        const temporary = file(${JSON.stringify(folder)}, lang) + '.' + process.pid + '.planted';
        symlinkSync(file(${JSON.stringify(foreign)}, lang), temporary);
        renameSync(temporary, file(${JSON.stringify(folder)}, lang));
        prepareLangFolder(langs, ${JSON.stringify(folder)});
        for (const lang of langs) {
          const head = readFileSync(file(${JSON.stringify(folder)}, lang)).subarray(0, 2);
          if (head[0] !== 0x1f || head[1] !== 0x8b) throw new Error('not the data: ' + lang);
        }
      }`;
    const runs = await Promise.all([1, 2, 3, 4].map(() => node(script)));
    for (const run of runs) expect(run, run.stderr).toMatchObject({ code: 0 });
    prepareLangFolder(LANGS, folder);
    expect(readdirSync(folder).sort()).toEqual(LANGS.map((l) => `${l}.traineddata.gz`).sort());
    for (const lang of LANGS)
      expect(realpathSync(path.join(folder, `${lang}.traineddata.gz`))).toBe(realpathSync(traineddataPath(lang)!));
  });

  it('belongs to this install: a copy of the code elsewhere uses another folder', async () => {
    const elsewhere = path.join(scratch(), 'lang-data.ts');
    copyFileSync(MODULE, elsewhere);
    const run = await node(`import { installFolder } from ${JSON.stringify(elsewhere)}; console.log(installFolder());`);
    expect(run.code, run.stderr).toBe(0);
    const theirs = run.stdout.trim();
    expect(path.dirname(theirs)).toBe(os.tmpdir());
    expect(theirs).not.toBe(installFolder());
    expect(installFolder()).not.toBe(path.join(os.tmpdir(), 'yidu-tesseract'));
  });
});
