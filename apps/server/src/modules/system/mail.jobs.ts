import type { Mailer } from '../../engines/mail/mailer.ts';
import { sweepDataDirTemporaryFiles } from '../../engines/storage/disk.ts';
import { renderMail } from '../../engines/mail/templates.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Logger } from '../../lib/logger.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';

/** The worker's jobs for mail and housekeeping. */
export function registerSystemJobs(
  queue: JobQueue,
  deps: { mailer: Mailer; limiter: RateLimiter; dataDir: string; logger: Logger },
): void {
  queue.handle('mail.send', async (job) => {
    await deps.mailer.send(renderMail(job.template, job.language, job.to, job.params));
  });
  queue.handle('system.ping', async () => {});
  queue.handle('maintenance.prune', async () => {
    await deps.limiter.prune();
    // Hourly as well as at start-up: a process killed mid-write while the others lived on.
    await sweepDataDirTemporaryFiles(deps.dataDir, deps.logger);
  });
}
