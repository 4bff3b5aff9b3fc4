import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { CORPUS } from './helpers.ts';

const run = promisify(execFile);
// ajv-formats is CommonJS: its default export is the module object under Node's ESM loader.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/**
 * The official schemas (shared/standards, beside the corpus): OPDS 1.2's RELAX NG grammar, checked
 * by Debian's jing, and OPDS 2.0's JSON Schemas with Readium's, loaded locally under their ids.
 */
export const STANDARDS = process.env.YIDU_STANDARDS_DIR || path.join(path.dirname(CORPUS), 'standards');

/** Every JSON Schema file under a folder. */
async function schemaFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await schemaFiles(full)));
    else if (entry.name.endsWith('.schema.json')) found.push(full);
  }
  return found;
}

/** Validates OPDS 2.0 feeds against feed.schema.json; returns the errors of each call (none: valid). */
export async function opds2Validator(): Promise<(document: unknown) => ErrorObject[]> {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const files = [
    ...(await schemaFiles(path.join(STANDARDS, 'webpub-manifest'))),
    ...(await schemaFiles(path.join(STANDARDS, 'opds-2.0'))),
  ];
  for (const file of files) {
    const schema = JSON.parse(await readFile(file, 'utf8')) as { $id: string };
    ajv.addSchema(schema);
    // Readium's link schema names the OPDS properties schema by its old address (standards/README.md);
    // the schemas it refers to in turn are found beside it there.
    if (schema.$id.startsWith('https://specs.opds.io/schema/'))
      ajv.addSchema({ ...schema, $id: schema.$id.replace('https://specs.opds.io/', 'https://drafts.opds.io/') });
  }
  const validate = ajv.getSchema('https://specs.opds.io/schema/feed.schema.json');
  if (!validate) throw new Error('feed.schema.json was not loaded');
  return (document) => (validate(document) ? [] : [...(validate.errors ?? [])]);
}

/**
 * Validates OPDS 1.2 documents with jing against the RELAX NG grammar (opds-fixed.rnc: the published
 * one with its `atomUri` pattern mended, see standards/README.md), all in one run of the JVM.
 * Returns jing's complaints, file by file (none: valid).
 */
export async function validateAtom(documents: { name: string; xml: string }[]): Promise<string[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'yidu-opds-'));
  try {
    const files = await Promise.all(
      documents.map(async (document, i) => {
        const file = path.join(dir, `${String(i).padStart(3, '0')}-${document.name.replace(/[^a-z0-9]+/gi, '_')}.xml`);
        await writeFile(file, document.xml);
        return file;
      }),
    );
    try {
      await run('jing', ['-c', path.join(STANDARDS, 'opds-1.2', 'opds-fixed.rnc'), ...files], {
        maxBuffer: 16 * 1024 * 1024,
      });
      return [];
    } catch (error) {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      const complaints = `${stdout}\n${stderr}`
        .split('\n')
        .filter((line) => line.includes(dir))
        .map((line) => line.replace(`${dir}/`, ''));
      if (complaints.length === 0) throw error;
      return complaints;
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
