/**
 * Makes sure the bucket of S3_BUCKET exists, creating it when it does not:
 *
 *   node apps/server/src/cli/ensure-bucket.ts [--wait <seconds>]
 *
 * The first step of a deployment on several machines (deploy/compose.yaml runs it as `storage-init`
 * before any API or worker process starts). It reads the same S3_* variables as the server and waits
 * up to `--wait` seconds (default 120) for the store to answer, since a store starting beside it may
 * refuse connections or keys for a while. Exits 0 when the bucket is there, 1 otherwise.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/env.ts';
import { S3Storage } from '../engines/storage/storage.ts';

const { values } = parseArgs({ options: { wait: { type: 'string', default: '120' } } });
const waitSeconds = Number(values.wait);
if (!Number.isFinite(waitSeconds) || waitSeconds < 0) {
  console.error('--wait takes a number of seconds');
  process.exit(2);
}

const loaded = loadConfig(process.env, 'worker');
if (!loaded.ok) {
  console.error(loaded.errors.join('\n'));
  process.exit(1);
}
const s3 = loaded.config.s3;
if (!s3) {
  console.error('S3_BUCKET is not set: there is no bucket to make.');
  process.exit(1);
}

const storage = new S3Storage(s3);
const deadline = Date.now() + waitSeconds * 1000;
for (;;) {
  try {
    const outcome = await storage.ensureBucket();
    console.log(`Bucket ${s3.bucket}: ${outcome === 'created' ? 'created' : 'already there'}.`);
    process.exit(0);
  } catch (error) {
    const reason = `${(error as Error).name}: ${(error as Error).message}`;
    if (Date.now() > deadline) {
      console.error(`Bucket ${s3.bucket} could not be checked or created at ${s3.endpoint ?? 'AWS'}: ${reason}`);
      process.exit(1);
    }
    console.log(`Waiting for the store (${reason})`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
