/**
 * Where tesseract.js finds its trained data. It wants every `<lang>.traineddata.gz` in one folder,
 * while each @tesseract.js-data package has its own, so the folder holds links to the packages.
 *
 * The folder belongs to this install (named after a hash of where this code lives): a folder shared
 * by every checkout on the machine kept links into installs that had since been deleted or moved,
 * and OCR then failed for those languages. Links found there anyway (left by an older version of
 * this code, a moved checkout, or a copy that is not the installed data) are replaced atomically, so
 * that two processes preparing the folder at once never see a missing or half-written file.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** The traineddata of a language from its @tesseract.js-data package, or undefined when not installed. */
export function traineddataPath(lang: string): string | undefined {
  try {
    const pkg = path.dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`));
    const file = path.join(pkg, '4.0.0_best_int', `${lang}.traineddata.gz`);
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

/** This install's folder for tesseract: `lang` (the links) and `cache` beneath it. */
export function installFolder(): string {
  const install = createHash('sha256')
    .update(import.meta.dirname)
    .digest('hex')
    .slice(0, 16);
  return path.join(os.tmpdir(), `yidu-tesseract-${install}`);
}

/** True when `target` already serves `source`: a link to it, or a copy of the same size. */
function serves(target: string, source: string): boolean {
  let link;
  try {
    link = lstatSync(target);
  } catch {
    return false;
  }
  if (link.isSymbolicLink()) {
    try {
      return path.resolve(path.dirname(target), readlinkSync(target)) === source && statSync(target).isFile();
    } catch {
      return false;
    }
  }
  // A copy, made where links are not allowed (some Windows accounts).
  return link.isFile() && link.size === statSync(source).size;
}

/**
 * Puts a link to (or, where links are refused, a copy of) `source` at `target`. The new entry is made
 * under a name of its own and renamed over `target`: rename replaces a link, dangling or not, in one
 * step, where writing through it would follow it into the install it points at.
 */
function place(source: string, target: string): void {
  const temporary = `${target}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  try {
    try {
      symlinkSync(source, temporary);
    } catch {
      copyFileSync(source, temporary);
    }
    renameSync(temporary, target);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/**
 * Makes sure `folder` holds this install's traineddata for `langs` (tesseract names: eng, chi_sim...)
 * and returns it. Only the languages asked for are linked: a missing package must not break the others.
 * Throws `MissingLanguageData` naming the first language whose package is not installed.
 */
export function prepareLangFolder(langs: string[], folder = path.join(installFolder(), 'lang')): string {
  mkdirSync(folder, { recursive: true });
  for (const lang of langs) {
    const source = traineddataPath(lang);
    if (!source) throw new MissingLanguageData(lang);
    const target = path.join(folder, `${lang}.traineddata.gz`);
    if (!serves(target, source)) place(source, target);
  }
  return folder;
}

export class MissingLanguageData extends Error {
  readonly lang: string;
  constructor(lang: string) {
    super(`No OCR model installed for ${lang}`);
    this.lang = lang;
  }
}
