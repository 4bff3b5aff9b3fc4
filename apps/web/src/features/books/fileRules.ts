import { BOOK_FILE_EXTENSIONS } from '@yidu/shared/books';

/** The title a file name suggests (shared with the server, which falls back to it the same way). */
export { titleFromFileName } from '@yidu/shared/books';

/** The accept attribute of the book file picker (SPEC §5.4). */
export const BOOK_ACCEPT = BOOK_FILE_EXTENSIONS.join(',');
/** SPEC §5.5: JPG, JPEG, PNG only. */
export const COVER_ACCEPT = '.jpg,.jpeg,.png,image/jpeg,image/png';

export type BookFileProblem = 'unsupportedFileType' | 'fileTooLarge' | 'emptyFile';

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

/** Client-side checks before an upload; the server checks again. */
export function checkBookFile(file: { name: string; size: number }, maxFileMb: number): BookFileProblem | null {
  if (!BOOK_FILE_EXTENSIONS.includes(extensionOf(file.name))) return 'unsupportedFileType';
  if (file.size === 0) return 'emptyFile';
  if (maxFileMb > 0 && file.size > maxFileMb * 1024 * 1024) return 'fileTooLarge';
  return null;
}

/** SPEC §5.5: a cover must be a JPG/JPEG or PNG, by extension and (when the browser tells) by type. */
export function isCoverFile(file: { name: string; type: string }): boolean {
  const extOk = ['.jpg', '.jpeg', '.png'].includes(extensionOf(file.name));
  const typeOk = !file.type || file.type === 'image/jpeg' || file.type === 'image/png';
  return extOk && typeOk;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
