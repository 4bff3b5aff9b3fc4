import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StageState } from '@yidu/shared/books';
import UploadPage from './UploadPage.tsx';
import { pipelineTiming } from './usePipeline.ts';
import { makeCounts } from './testData.ts';
import { fail, fakeFetch, makeUser, ok, renderPage, type FakeCall } from '../../test/utils.tsx';
import { useAuth } from '../../stores/auth.ts';
import { ApiError } from '../../api/client.ts';
import { uploadFile } from '../../api/upload.ts';

vi.mock('../../api/upload.ts', () => ({ uploadFile: vi.fn() }));
const uploadMock = vi.mocked(uploadFile);

beforeEach(() => {
  pipelineTiming.pollMs = 5;
  useAuth.setState({ token: 't1', user: makeUser({ languageCode: 'zh', defaultSharePublic: false }) });
  uploadMock.mockReset();
  uploadMock.mockImplementation(async (_path, _file, options) => {
    (options as { onProgress?: (n: number) => void } | undefined)?.onProgress?.(0.5);
    return { fileId: 'f1', format: 'epub' } as never;
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useAuth.getState().clear();
});

const stage = (s: StageState['stage'], status: StageState['status'], extra: Partial<StageState> = {}) =>
  ok({ requestId: 'r1', stage: s, status, ...extra });

/** Answers one after another, repeating the last. */
function sequence(...answers: ReturnType<typeof ok>[]) {
  let i = 0;
  return () => answers[Math.min(i++, answers.length - 1)]!;
}

function setup(handlers: Parameters<typeof fakeFetch>[0] = {}) {
  const fetch = fakeFetch({
    'GET /api/book/upload/count': ok(makeCounts()),
    'POST /api/book/saveNew': ok({ requestId: 'r1' }),
    ...handlers,
  });
  const user = userEvent.setup({ applyAccept: false });
  const view = renderPage(<UploadPage />, '/book/upload');
  return { ...fetch, user, view };
}

const fileInput = () => document.querySelector<HTMLInputElement>('input[type=file]')!;
const book = (name = 'Moby_Dick.epub', size = 1000) => new File([new Uint8Array(size)], name);
const callsTo = (calls: FakeCall[], path: string) => calls.filter((c) => c.path === path);

async function toProgress(user: ReturnType<typeof userEvent.setup>, file = book()) {
  await screen.findByText('Click or drag a book file here');
  await user.upload(fileInput(), file);
  await screen.findByText('Uploaded');
  await user.click(screen.getByRole('button', { name: 'Next' }));
  await screen.findByLabelText('Title');
  await user.click(screen.getByRole('button', { name: 'Next' }));
}

describe('upload wizard: select file', () => {
  it("says 'Please upload the file before confirming' when Next is pressed without a file", async () => {
    const { user } = setup();
    await screen.findByText('Click or drag a book file here');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect((await screen.findAllByText('Please upload the file before confirming')).length).toBeGreaterThan(0);
    expect(screen.queryByLabelText('Title')).toBeNull();
  });

  it('checks type and size on the client before uploading, with the limit from upload/count', async () => {
    const { user } = setup({ 'GET /api/book/upload/count': ok(makeCounts({ maxFileMb: 1 })) });
    expect(await screen.findByText('PDF, TXT, DOCX, DOC or EPUB, up to 1 MB')).toBeTruthy();
    await user.upload(fileInput(), book('cover.png'));
    expect(
      (await screen.findAllByText('Only PDF, TXT, DOCX, DOC and EPUB files can be uploaded')).length,
    ).toBeGreaterThan(0);
    await user.upload(fileInput(), book('big.pdf', 1024 * 1024 + 1));
    expect((await screen.findAllByText('The file is too large: at most 1 MB')).length).toBeGreaterThan(0);
    expect(uploadMock).not.toHaveBeenCalled();
  });

  it('uploads with the multipart helper, then defaults the title to the file name and the target to the user language', async () => {
    const { user } = setup();
    await screen.findByText('Click or drag a book file here');
    await user.upload(fileInput(), book('Moby_Dick.epub'));
    await screen.findByText('Uploaded');
    expect(uploadMock).toHaveBeenCalledWith('/book/upload', expect.any(File), expect.anything());
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(((await screen.findByLabelText('Title')) as HTMLInputElement).value).toBe('Moby Dick');
    expect((screen.getByLabelText('Author') as HTMLInputElement).placeholder).toBe('Anonymous');
    expect(screen.getByText('Detect automatically')).toBeTruthy();
  });

  it("shows 'Failed to upload this file' with Retry", async () => {
    uploadMock.mockRejectedValueOnce(new ApiError({ status: 422, code: 422, key: 'emptyFile', message: 'x' }));
    const { user } = setup();
    await screen.findByText('Click or drag a book file here');
    await user.upload(fileInput(), book());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to upload this file');
    expect(alert.textContent).toContain('The file is empty');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await screen.findByText('Uploaded');
    expect(uploadMock).toHaveBeenCalledTimes(2);
  });
});

describe('upload wizard: what the file declares', () => {
  it('pre-fills title, author and description from the file and shows its cover', async () => {
    uploadMock.mockResolvedValueOnce({
      fileId: 'f1',
      format: 'epub',
      metadata: {
        title: 'Moby-Dick',
        author: 'Herman Melville',
        description: 'A whale of a tale.',
        coverUrl: '/api/media/covers/c-thumb.jpg?sig=s',
      },
    } as never);
    const { user, calls } = setup({ 'GET /api/book/analysis': stage('parsingFile', 'running') });
    await screen.findByText('Click or drag a book file here');
    await user.upload(fileInput(), book('en-moby-dick-epub3.epub'));
    await screen.findByText('Uploaded');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(((await screen.findByLabelText('Title')) as HTMLInputElement).value).toBe('Moby-Dick');
    expect((screen.getByLabelText('Author') as HTMLInputElement).value).toBe('Herman Melville');
    expect((screen.getByLabelText('Description') as HTMLTextAreaElement).value).toBe('A whale of a tale.');
    const note = screen.getByTestId('info-from-file');
    expect(note.textContent).toContain('Filled in from the file itself');
    expect(within(note).getByRole('img', { name: 'Cover found in the file' }).getAttribute('src')).toBe(
      '/api/media/covers/c-thumb.jpg?sig=s',
    );
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByTestId('stage-parsingFile');
    expect(callsTo(calls, '/api/book/saveNew')[0]!.body).toMatchObject({
      bookName: 'Moby-Dick',
      bookAuthor: 'Herman Melville',
      bookDescribe: 'A whale of a tale.',
    });
  });

  it('falls back to the file name when the file says nothing usable', async () => {
    uploadMock.mockResolvedValueOnce({
      fileId: 'f1',
      format: 'pdf',
      metadata: { title: null, author: null, description: null, coverUrl: null },
    } as never);
    const { user } = setup();
    await screen.findByText('Click or drag a book file here');
    await user.upload(fileInput(), book('Public_Domain_Stories.pdf'));
    await screen.findByText('Uploaded');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(((await screen.findByLabelText('Title')) as HTMLInputElement).value).toBe('Public Domain Stories');
    expect((screen.getByLabelText('Author') as HTMLInputElement).value).toBe('');
    expect(screen.queryByTestId('info-from-file')).toBeNull();
  });
});

describe('upload wizard: the limit modal', () => {
  it('opens at once when the limit is already reached, with counts, limits, the trial notice and the contact', async () => {
    setup({ 'GET /api/book/upload/count': ok(makeCounts({ today: 20, thisMonth: 42 })) });
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Upload Limit Reached')).toBeTruthy();
    expect(within(dialog).getByText('20 / 20')).toBeTruthy();
    expect(within(dialog).getByText('42 / 100')).toBeTruthy();
    expect(within(dialog).getByText(/uploads per IP address are limited/)).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'help@example.com' }).getAttribute('href')).toBe(
      'mailto:help@example.com',
    );
  });

  it('does not open after an upload that takes the last slot of the day', async () => {
    const { user } = setup({
      'GET /api/book/upload/count': sequence(ok(makeCounts({ today: 19 })), ok(makeCounts({ today: 20 }))),
    });
    await screen.findByText('Click or drag a book file here');
    await user.upload(fileInput(), book());
    await screen.findByText('Uploaded');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByLabelText('Title');
    expect(screen.queryByText('Upload Limit Reached')).toBeNull();
  });

  it('opens when the upload answers uploadLimitReached', async () => {
    uploadMock.mockRejectedValueOnce(
      new ApiError({
        status: 429,
        code: 429,
        key: 'uploadLimitReached',
        message: 'x',
        data: { key: 'uploadLimitReached', ...makeCounts({ thisMonth: 100 }) },
      }),
    );
    const { user } = setup();
    await screen.findByText('Click or drag a book file here');
    await user.upload(fileInput(), book());
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('100 / 100')).toBeTruthy();
  });
});

describe('upload wizard: edit info', () => {
  it("asks before a public upload, and shows 'Failed to save book information' with Retry", async () => {
    let saves = 0;
    const { user, calls } = setup({
      'POST /api/book/saveNew': () => (++saves === 1 ? fail(400, 'noSuchLanguage') : ok({ requestId: 'r1' })),
      'GET /api/book/analysis': stage('parsingFile', 'running'),
    });
    await screen.findByText('Click or drag a book file here');
    await user.upload(fileInput(), book());
    await screen.findByText('Uploaded');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByLabelText('Title');
    await user.click(screen.getByText('Public'));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getAllByText('Make this book public?').length).toBeGreaterThan(0);
    await user.click(within(confirm).getByRole('button', { name: 'Make public' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const alert = (await screen.findByText('Failed to save book information')).closest<HTMLElement>('[role="alert"]')!;
    expect(alert.textContent).toContain('Language not available');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await screen.findByTestId('stage-parsingFile');
    expect(callsTo(calls, '/api/book/saveNew')[1]!.body).toEqual({
      fileId: 'f1',
      bookName: 'Moby Dick',
      bookStatus: 1,
      forceOCR: false,
      autoSplitFootnote: false,
      language: 'zh',
    });
  });
});

describe('upload wizard: progress', () => {
  it('runs the stages in turn, shows their results and adopts the translated title when asked', async () => {
    const { user, calls } = setup({
      'GET /api/book/analysis': sequence(
        stage('parsingFile', 'running', { progress: 0.4 }),
        stage('parsingFile', 'done', { result: { chapters: 12, pages: 340 } }),
      ),
      'GET /api/book/languageDetection': stage('detectingLanguage', 'done', {
        result: { language: 'jp', source: 'detected' },
      }),
      'GET /api/book/translationBookName': stage('translatingTitle', 'done', { result: { translatedName: '白鲸' } }),
      'GET /api/book/saveBookById': sequence(
        stage('saving', 'running'),
        stage('saving', 'done', { result: { bookCode: 'b9' } }),
      ),
    });
    await toProgress(user);
    expect(await screen.findByText('12 chapters, 340 pages')).toBeTruthy();
    expect(await screen.findByText('Detected: Japanese')).toBeTruthy();
    expect(await screen.findByText('The system-translated title is “白鲸”.')).toBeTruthy();
    expect(callsTo(calls, '/api/book/saveBookById')).toHaveLength(0);
    expect(callsTo(calls, '/api/book/analysis').length).toBeGreaterThanOrEqual(2);
    expect(callsTo(calls, '/api/book/translationBookName')[0]!.query.get('userLanguage')).toBe('zh');

    await user.click(screen.getByRole('button', { name: 'Use the translated title' }));
    await screen.findByText('“白鲸” is ready.');
    expect(callsTo(calls, '/api/book/saveBookById')[0]!.query.get('bookName')).toBe('白鲸');
    await user.click(screen.getByRole('button', { name: 'Complete' }));
    expect(await screen.findByText('Your book is ready')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Return to Personal Library' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Upload Next Book' }));
    expect(await screen.findByText('Click or drag a book file here')).toBeTruthy();
  });

  it('keeps the original title when the user says so', async () => {
    const { user, calls } = setup({
      'GET /api/book/analysis': stage('parsingFile', 'done', { result: { chapters: 1, pages: 2 } }),
      'GET /api/book/languageDetection': stage('detectingLanguage', 'done', { result: { language: 'en' } }),
      'GET /api/book/translationBookName': stage('translatingTitle', 'done', { result: { translatedName: '白鲸' } }),
      'GET /api/book/saveBookById': stage('saving', 'done', { result: { bookCode: 'b9' } }),
    });
    await toProgress(user);
    await user.click(await screen.findByRole('button', { name: 'Keep the original title' }));
    await screen.findByText('“Moby Dick” is ready.');
    expect(callsTo(calls, '/api/book/saveBookById')[0]!.query.get('bookName')).toBe('Moby Dick');
  });

  it('lets the user continue with the original title after a failed title translation', async () => {
    const { user, calls } = setup({
      'GET /api/book/analysis': stage('parsingFile', 'done', { result: { chapters: 1, pages: 2 } }),
      'GET /api/book/languageDetection': stage('detectingLanguage', 'done', { result: { language: 'en' } }),
      'GET /api/book/translationBookName': stage('translatingTitle', 'failed', {
        errorKey: 'translationUnavailable',
        message: "Failed to translate book's title",
      }),
      'GET /api/book/saveBookById': stage('saving', 'done', { result: { bookCode: 'b9' } }),
    });
    await toProgress(user);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain("Failed to translate book's title");
    expect(alert.textContent).toContain('No translation engine is available');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Complete' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(alert).getByRole('button', { name: 'Keep the original title and continue' }));
    await screen.findByText('“Moby Dick” is ready.');
    expect(screen.getByText('Kept the original title “Moby Dick”')).toBeTruthy();
    expect(callsTo(calls, '/api/book/saveBookById')[0]!.query.get('bookName')).toBe('Moby Dick');
  });

  it('shows a failed stage with its message and reason, and Retry resumes polling it', async () => {
    let failed = true;
    const { user, calls } = setup({
      'GET /api/book/analysis': () =>
        failed
          ? stage('parsingFile', 'failed', { errorKey: 'fileEncrypted', message: 'Failed to parse the file' })
          : stage('parsingFile', 'done', { result: { chapters: 3, pages: 9 } }),
      'POST /api/book/upload/retry': () => {
        failed = false;
        return stage('parsingFile', 'running');
      },
      'GET /api/book/languageDetection': stage('detectingLanguage', 'failed', { errorKey: 'noTextFound' }),
    });
    await toProgress(user);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to parse the file');
    expect(alert.textContent).toContain('The file is protected by a password');
    expect(screen.getByTestId('stage-parsingFile').dataset.status).toBe('failed');
    expect(screen.getByTestId('stage-detectingLanguage').dataset.status).toBe('wait');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('3 chapters, 9 pages')).toBeTruthy();
    expect(callsTo(calls, '/api/book/upload/retry')[0]!.query.get('requestId')).toBe('r1');
    // The next stage failing shows its own message.
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain("Failed to detect book's language"));
    expect(screen.getByRole('alert').textContent).toContain('No text was found in the file');
  });

  it('offers another file after a failed parse: back to the file step, the failed request left alone', async () => {
    let saves = 0;
    const { user, calls } = setup({
      'POST /api/book/saveNew': () => ok({ requestId: ++saves === 1 ? 'r1' : 'r2' }),
      'GET /api/book/analysis': (call: FakeCall) =>
        call.query.get('requestId') === 'r1'
          ? stage('parsingFile', 'failed', { errorKey: 'fileCorrupted', message: 'Failed to parse the file' })
          : stage('parsingFile', 'running'),
    });
    await toProgress(user, book('broken.epub'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to parse the file');
    expect(alert.textContent).toContain('The file is damaged');
    expect((screen.getByRole('button', { name: 'Complete' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(alert).getByRole('button', { name: 'Choose another file' }));

    expect(await screen.findByText('Click or drag a book file here')).toBeTruthy();
    expect(screen.queryByTestId('upload-file')).toBeNull();
    const polled = callsTo(calls, '/api/book/analysis').length;
    await new Promise((r) => setTimeout(r, 50));
    expect(callsTo(calls, '/api/book/analysis')).toHaveLength(polled);
    expect(callsTo(calls, '/api/book/upload/retry')).toHaveLength(0);

    await toProgress(user, book('good.epub'));
    await waitFor(() => expect(screen.getByTestId('stage-parsingFile').dataset.status).toBe('running'));
    expect(callsTo(calls, '/api/book/saveNew')[1]!.body).toMatchObject({ bookName: 'good' });
    expect(callsTo(calls, '/api/book/analysis').at(-1)!.query.get('requestId')).toBe('r2');
  });
});
