import type { JobQueue } from '../../jobs/queue.ts';
import type { ReaderService } from '../reader/reader.service.ts';
import type { BookCrops } from './book-crops.ts';
import type { UploadService } from './upload.service.ts';

/** The upload pipeline's stages as durable jobs (see UploadService.runStage). */
export function registerBookJobs(
  queue: JobQueue,
  uploads: UploadService,
  reader: ReaderService,
  crops: BookCrops,
): void {
  queue.handle('book.parse', (job, meta) => uploads.runStage('parsingFile', job.requestId, meta));
  queue.handle('book.detectLanguage', (job, meta) => uploads.runStage('detectingLanguage', job.requestId, meta));
  queue.handle('book.translateTitle', (job, meta) => uploads.runStage('translatingTitle', job.requestId, meta));
  queue.handle('book.save', (job, meta) => uploads.runStage('saving', job.requestId, meta));
  queue.handle('book.sweepUploads', async () => {
    await uploads.sweep();
    await crops.sweep();
  });
  queue.handle('book.crops', async (job) => {
    await crops.run(job.bookId);
  });
  queue.handle('translate.page', (job) => reader.translatePage(job.bookId, job.lang, job.page));
}
