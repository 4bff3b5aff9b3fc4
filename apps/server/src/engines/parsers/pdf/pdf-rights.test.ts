/**
 * PDFs protected by Microsoft Information Rights Management are refused with their own key, in both
 * forms: encrypted with Microsoft's security handler, and the PDF IRM v2 wrapper whose one page is a
 * notice and whose document is an encrypted payload. Other short PDFs with attachments, or about IRM,
 * are read as before.
 */
import { describe, expect, it } from 'vitest';
import { ParseError } from '../errors.ts';
import { parseBook } from '../registry.ts';
import { pdfFixture } from './pdf-fixture.ts';
import { pdfParser } from './pdf.ts';
import { irmEncryptedPdf, irmWrapperPdf } from './pdf-rights-fixture.ts';

async function refusal(pdf: Uint8Array): Promise<string> {
  const error = await pdfParser.parse(Buffer.from(pdf), { pdfHelperThreads: 0 }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ParseError);
  return (error as ParseError).key;
}

/** The wrapper's notice as it reads in other languages. */
const NOTICES: Record<string, string[]> = {
  de: [
    'Dieses PDF-Dokument wurde geschützt.',
    'Der von Ihnen verwendete Reader unterstützt das Öffnen von Dateien nicht,',
    'die mit Microsoft Office geschützt wurden. Verwenden Sie einen unterstützten Reader.',
  ],
  fr: [
    'Ce document PDF a été protégé.',
    'Le lecteur que vous utilisez ne prend pas en charge l’ouverture des fichiers protégés par Microsoft Office.',
    'Utilisez un lecteur compatible.',
  ],
  es: [
    'Este documento PDF se ha protegido.',
    'El lector que está usando no admite la apertura de archivos protegidos por Microsoft Office.',
  ],
  zh: ['此 PDF 文档已受保护。', '您使用的阅读器不支持打开受 Microsoft Office 保护的文件。请使用受支持的阅读器。'],
  jp: [
    'この PDF ドキュメントは保護されています。',
    'ご使用のリーダーは、Microsoft Office で保護されたファイルを開くことができません。',
  ],
};

describe('PDFs protected by Microsoft IRM', () => {
  it('refuses a file encrypted with the MicrosoftIRMServices security handler', async () => {
    expect(await refusal(irmEncryptedPdf())).toBe('fileRightsProtected');
  });

  it('refuses a PDF IRM v2 wrapper by its encrypted payload, whether its dictionaries are in plain sight or in an object stream', async () => {
    expect(await refusal(irmWrapperPdf())).toBe('fileRightsProtected');
    expect(await refusal(irmWrapperPdf({ compressed: true }))).toBe('fileRightsProtected');
    // Through the registry too (what the parse processes call).
    const error = await parseBook(Buffer.from(irmWrapperPdf({ compressed: true })), { pdfHelperThreads: 0 }).catch(
      (e: unknown) => e,
    );
    expect((error as ParseError).key).toBe('fileRightsProtected');
  });

  it('refuses a wrapper whose payload is named otherwise by its notice, in English and as it reads in other languages', async () => {
    const anonymous = { compressed: true, anonymous: true, payloadName: 'Quarterly report.pdf' };
    expect(await refusal(irmWrapperPdf(anonymous))).toBe('fileRightsProtected');
    for (const [language, notice] of Object.entries(NOTICES)) {
      expect(await refusal(irmWrapperPdf({ ...anonymous, notice })), language).toBe('fileRightsProtected');
    }
  });

  it('reads short PDFs that merely have attachments, or that talk about IRM', async () => {
    const attached = irmWrapperPdf({
      compressed: true,
      anonymous: true,
      payloadName: 'measurements.csv',
      notice: ['Measurements of the spring campaign', 'The raw data are attached to this file as a table.'],
    });
    const book = await pdfParser.parse(Buffer.from(attached), { pdfHelperThreads: 0 });
    expect(book.chapters[0]!.blocks[0]!.text).toContain('Measurements of the spring campaign');

    const faq = pdfFixture([
      {
        runs: [
          { text: 'How to open documents protected by Microsoft Information Rights Management', x: 72, y: 720 },
          {
            text: 'Files protected with IRM open only in a supported reader signed in to your company account.',
            x: 72,
            y: 700,
          },
        ],
      },
    ]);
    const read = await pdfParser.parse(Buffer.from(faq), { pdfHelperThreads: 0 });
    expect(read.chapters.flatMap((c) => c.blocks).length).toBeGreaterThan(0);
  });
});
