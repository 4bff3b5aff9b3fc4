import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { sniff, sniffFormat } from './sniff.ts';
import { ParseError } from './errors.ts';

describe('sniff', () => {
  it('recognises formats by their bytes', async () => {
    expect(sniffFormat(Buffer.from('%PDF-1.7\n...'))).toBe('pdf');
    expect(sniffFormat(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]))).toBe('doc');
    expect(sniffFormat(Buffer.from('Just some text\nwith lines.'))).toBe('txt');
    expect(sniffFormat(Buffer.from('\ufeffBOM text'))).toBe('txt');
    expect(sniffFormat(Buffer.from('\ufeffUTF-16 text', 'utf16le'))).toBe('txt');
    expect(sniffFormat(Buffer.from('中文文本', 'utf8'))).toBe('txt');
    const epub = new JSZip();
    epub.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
    epub.file('META-INF/container.xml', '<container/>');
    expect(sniffFormat(await epub.generateAsync({ type: 'nodebuffer' }))).toBe('epub');
    const docx = new JSZip();
    docx.file('[Content_Types].xml', '<Types/>');
    docx.file('word/document.xml', '<w:document/>');
    expect(sniffFormat(await docx.generateAsync({ type: 'nodebuffer' }))).toBe('docx');
  });

  it('refuses images, other archives, binaries and empty files with typed errors', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    const result = sniff(png);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.key).toBe('unsupportedFileType');
    expect(() => sniffFormat(png)).toThrow(ParseError);
    const xlsx = new JSZip();
    xlsx.file('[Content_Types].xml', '<Types/>');
    xlsx.file('xl/workbook.xml', '<workbook/>');
    const xlsxResult = sniff(await xlsx.generateAsync({ type: 'nodebuffer' }));
    expect(xlsxResult.ok ? 'ok' : xlsxResult.error.key).toBe('unsupportedFileType');
    const binary = Buffer.from([1, 2, 3, 0, 0, 5, 6, 7, 0, 9, 200, 0, 1, 0, 0, 0]);
    const binaryResult = sniff(binary);
    expect(binaryResult.ok ? 'ok' : binaryResult.error.key).toBe('unsupportedFileType');
    const empty = sniff(Buffer.alloc(0));
    expect(empty.ok ? 'ok' : empty.error.key).toBe('emptyFile');
  });
});
