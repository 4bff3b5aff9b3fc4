/**
 * PDFs protected by Microsoft Information Rights Management (IRM, Azure RMS / Purview Information
 * Protection). Only an app signed in to the owner's organisation can open them, so they are refused
 * with `fileRightsProtected` rather than read as what a reader without that sees. They come in two
 * forms:
 *
 * - The older one (SharePoint Server, the RMS sharing app): the whole file is encrypted with
 *   Microsoft's own security handler, an /Encrypt dictionary whose /Filter is /MicrosoftIRMServices.
 *   pdf.js knows only the standard handler and calls such a file damaged.
 * - PDF IRM v2 (Microsoft 365): an unencrypted wrapper whose one page says the document is protected
 *   and needs a supported reader, with the real document embedded as an encrypted payload
 *   ("MicrosoftIRMServices Protected PDF.pdf", an encrypted payload dictionary naming the filter,
 *   PDF 2.0's /AFRelationship /EncryptedPayload). Read as it is, it is a one-page book of that notice.
 *   The payload is found by its name or description among the embedded files, and a wrapper from a
 *   tool that names it otherwise by its notice, in the languages Microsoft writes it in.
 */
import { ParseError } from '../errors.ts';
import type { PdfDocument } from './pdf-text.ts';

const FILTER_NAME = 'MicrosoftIRMServices';
/** What Microsoft names the encrypted payload a wrapper embeds. */
const PAYLOAD_NAME = 'MicrosoftIRMServices Protected PDF.pdf';
/** Where a file's trailer (and so its /Encrypt entry) may be: its start (linearized) and its end. */
const TRAILER_WINDOW = 64 * 1024;
/** A wrapper is one page; a document this short may be one. */
const WRAPPER_PAGES = 3;
/** A wrapper's notice is a few sentences. */
const NOTICE_CHARS = 2000;

/** The message of the refusal, for logs. */
const REFUSAL = 'The PDF is protected by Microsoft Information Rights Management';

/**
 * Refuses a file encrypted with Microsoft's IRM security handler: it has an /Encrypt entry and a
 * /Filter /MicrosoftIRMServices. Looked for in the bytes before pdf.js opens the file (pdf.js fails
 * on it); the whole file is searched only when its trailer says it is encrypted.
 */
export function refuseRightsEncrypted(input: Uint8Array): void {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const head = bytes.subarray(0, TRAILER_WINDOW);
  const tail = bytes.subarray(Math.max(0, bytes.length - TRAILER_WINDOW));
  if (!head.includes('/Encrypt') && !tail.includes('/Encrypt')) return;
  for (let at = bytes.indexOf(`/${FILTER_NAME}`); at !== -1; at = bytes.indexOf(`/${FILTER_NAME}`, at + 1)) {
    const after = bytes[at + FILTER_NAME.length + 1];
    const isWholeName = after === undefined || !/[A-Za-z0-9#._-]/.test(String.fromCharCode(after));
    const before = bytes.subarray(Math.max(0, at - 32), at).toString('latin1');
    if (isWholeName && /\/Filter\s*$/.test(before)) {
      throw new ParseError('fileRightsProtected', `${REFUSAL} (its encryption filter is ${FILTER_NAME})`);
    }
  }
}

export interface EmbeddedFile {
  name: string;
  description: string;
}

/**
 * The embedded files of a document short enough to be a wrapper; refuses it when one of them is an
 * IRM payload. A longer document's files are not looked at: pdf.js would inflate them all.
 */
export async function refuseRightsWrapper(doc: PdfDocument): Promise<EmbeddedFile[]> {
  if (doc.numPages > WRAPPER_PAGES) return [];
  const attachments = ((await doc.getAttachments().catch(() => null)) ?? {}) as Record<
    string,
    { filename?: string; description?: string }
  >;
  const files = Object.entries(attachments).map(([key, file]) => ({
    name: file.filename || key,
    description: file.description ?? '',
  }));
  const payload = files.find(
    (file) => file.name === PAYLOAD_NAME || file.name.includes(FILTER_NAME) || file.description.includes(FILTER_NAME),
  );
  if (payload) throw new ParseError('fileRightsProtected', `${REFUSAL} (it wraps "${payload.name}")`);
  return files;
}

/** A wrapper's notice: that the document is protected… */
const PROTECTED =
  /protected|geschützt|protégé|protegid[oa]|protett[oa]|beschermd|chronion|защищ|受保护|受保護|已保护|已保護|保護され|보호/iu;
/** …by Microsoft's rights management… */
const RIGHTS_SERVICE =
  /microsoft|azure|\b(?:IRM|RMS|AIP|MIP)\b|information protection|rights management|purview|rechteverwaltung|gestion des droits|gestión de derechos|gerenciamento de direitos|gestione dei diritti|управлени[ея] прав|信息权限管理|資訊版權管理|情報権限管理|정보 권한 관리/iu;
/** …and needs another reader or app to be opened. */
const NEEDS_READER =
  /reader|viewer|lecteur|lector|leitor|lettore|lezer|czytnik|просмотр|阅读器|閱讀器|リーダー|ビューアー|리더|뷰어|\bapps?\b|application|anwendung|aplicación|aplicativo|applicazione|приложени|应用|應用|アプリ|앱/iu;

/**
 * Refuses a short document with embedded files whose whole text is an IRM notice ("This PDF Document
 * has been protected. The reader you are using does not support opening files protected by Microsoft
 * Office…", in the language it was protected in): a wrapper whose payload is named otherwise.
 */
export function refuseRightsNotice(text: string, files: EmbeddedFile[], pages: number): void {
  if (!files.length || pages > WRAPPER_PAGES) return;
  const notice = text.replace(/\s+/g, ' ').trim();
  if (notice.length > NOTICE_CHARS) return;
  if (PROTECTED.test(notice) && RIGHTS_SERVICE.test(notice) && NEEDS_READER.test(notice)) {
    throw new ParseError('fileRightsProtected', `${REFUSAL} (its only page is the notice of a wrapper)`);
  }
}
