import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface EpubcheckMessage {
  ID: string;
  severity: 'FATAL' | 'ERROR' | 'WARNING' | 'USAGE' | 'INFO' | 'SUPPRESSED';
  message: string;
  locations: { path: string; line: number; column: number }[];
}

/**
 * Debian's epubcheck (the W3C validator, installed by .ci/run) on an EPUB's bytes. The package's
 * /usr/bin/epubcheck is the jar itself, so it is run with java (EPUBCHECK_JAR points elsewhere).
 */
export async function epubcheck(epub: Buffer): Promise<EpubcheckMessage[]> {
  const jar = process.env.EPUBCHECK_JAR ?? realpathSync('/usr/bin/epubcheck');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'yidu-epubcheck-'));
  try {
    const file = path.join(dir, 'book.epub');
    const report = path.join(dir, 'report.json');
    await writeFile(file, epub);
    // epubcheck exits with 1 when it finds errors; the report says which.
    await run('java', ['-jar', jar, file, '--json', report], { maxBuffer: 64 * 1024 * 1024 }).catch(
      (error: { code?: number }) => {
        if (error.code !== 1) throw error;
      },
    );
    const parsed = JSON.parse(await readFile(report, 'utf8')) as { messages: EpubcheckMessage[] };
    return parsed.messages;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The messages that make an EPUB invalid (fatal errors and errors). */
export const problems = (messages: EpubcheckMessage[]) =>
  messages
    .filter((m) => m.severity === 'FATAL' || m.severity === 'ERROR')
    .map((m) => `${m.ID} ${m.message} @ ${m.locations.map((l) => `${l.path}:${l.line}`).join(', ')}`);
