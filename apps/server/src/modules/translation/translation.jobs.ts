import type { JobQueue } from '../../jobs/queue.ts';
import type { GlossaryExtraction } from './glossary-extraction.ts';
import type { Retranslation } from './retranslation.ts';

/** The glossary's durable work: extraction after a book is stored, and confirmed retranslations. */
export function registerTranslationJobs(
  queue: JobQueue,
  jobs: { extraction: GlossaryExtraction; retranslation: Retranslation },
): void {
  queue.handle('glossary.extract', (job) => jobs.extraction.afterUpload(job.bookId, job.lang));
  queue.handle('glossary.retranslate', (job) => jobs.retranslation.run(job));
}
