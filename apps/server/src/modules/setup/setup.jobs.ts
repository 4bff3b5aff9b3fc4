import type { JobQueue } from '../../jobs/queue.ts';
import type { SetupService } from './setup.service.ts';

/** The worker's engine probe: engines and AI models that real use has not proven lately get a light check. */
export function registerSetupJobs(queue: JobQueue, setup: SetupService): void {
  queue.handle('setup.probe', async () => {
    await setup.probe();
  });
}

/**
 * Every `minutes` minutes (0: never), and once shortly after start so that a fresh install learns soon:
 * once per deployment, not once per worker, when several start together (one job per key and 5 minutes).
 */
export async function scheduleProbes(queue: JobQueue, minutes: number): Promise<void> {
  if (minutes <= 0) return queue.schedule('setup.probe', null);
  const cron = minutes < 60 ? `*/${minutes} * * * *` : `0 */${Math.min(24, Math.round(minutes / 60))} * * *`;
  await queue.schedule('setup.probe', cron);
  await queue.send('setup.probe', {}, { singletonKey: 'setup.probe.start', singletonSeconds: 300, startAfter: 15 });
}
