import type { JobQueue } from '../../jobs/queue.ts';
import type { BookTranslationService } from './book-translation.service.ts';

/** Whole-book translations as durable jobs: runs of a few pages each, and the resumption of lost ones. */
export function registerBookTranslationJobs(queue: JobQueue, translations: BookTranslationService): void {
  queue.handle('book.translateWhole', (job, meta) => translations.runner.run(job.jobId, meta.id));
  queue.handle('book.resumeTranslations', async () => {
    await translations.resumeLapsed();
  });
}
