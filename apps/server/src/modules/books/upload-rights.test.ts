/**
 * Uploading a PDF protected by Microsoft IRM: the file is taken, and its parse stage fails with
 * `fileRightsProtected` (not as a damaged file, not as a one-page book of the wrapper's notice); the
 * user's other uploads go on as usual.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfFixture } from '../../engines/parsers/pdf/pdf-fixture.ts';
import { irmEncryptedPdf, irmWrapperPdf } from '../../engines/parsers/pdf/pdf-rights-fixture.ts';
import { ERRORS } from '@yidu/shared/errors';
import { pollStage, registerUser, startTestApp, uploadFile, type TestApp } from '../../../test/helpers.ts';

describe('uploading a PDF protected by Microsoft IRM', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ REQUIRE_INVITE: 'false', EMAIL_ACTIVATION: 'false' });
    token = await registerUser(t, 'irm-uploader');
  });
  afterAll(async () => t?.close());

  /** Uploads and saves a file; returns the parse stage's answer. */
  async function parseStage(name: string, data: Uint8Array) {
    const upload = await uploadFile(t, '/api/book/upload', { name, data: Buffer.from(data) }, token);
    expect(upload.code).toBe(0);
    expect(upload.data.format).toBe('pdf');
    const saved = await t.call('POST', '/api/book/saveNew', {
      token,
      body: { fileId: upload.data.fileId, bookName: name.replace(/\.pdf$/, ''), bookStatus: 0 },
    });
    expect(saved.code).toBe(0);
    return pollStage(t, `/api/book/analysis?requestId=${saved.data.requestId}`, token);
  }

  it('fails the parse stage with fileRightsProtected, for the wrapper and for the encrypted form', async () => {
    for (const [name, pdf] of [
      ['Quarterly report (protected).pdf', irmWrapperPdf({ compressed: true })],
      ['Board minutes.pdf', irmEncryptedPdf()],
    ] as const) {
      const parsed = await parseStage(name, pdf);
      expect(parsed.data, name).toMatchObject({
        stage: 'parsingFile',
        status: 'failed',
        message: 'Failed to parse the file',
        errorKey: 'fileRightsProtected',
      });
    }
    expect(ERRORS.fileRightsProtected.status).toBe(422);
    // Nothing of them became a book.
    expect((await t.call('GET', '/api/book/user/library', { token })).data.total).toBe(0);
  });

  it('the next upload of an ordinary PDF is parsed as usual', async () => {
    const pdf = pdfFixture([
      { runs: [{ text: 'An ordinary page of an ordinary report, readable by anyone.', x: 72, y: 720 }] },
    ]);
    const parsed = await parseStage('report.pdf', pdf);
    expect(parsed.data).toMatchObject({ stage: 'parsingFile', status: 'done' });
  });
});
