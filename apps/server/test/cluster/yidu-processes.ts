/**
 * Yidu processes as an operator starts them (`node apps/server/src/main.ts --role=…`), each in its own
 * child process, with their JSON log lines kept so that a test can wait for one and count the errors.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** pino's level of `error`: what must never appear in a healthy cluster's logs. */
const ERROR_LEVEL = 50;

export class YiduProcess {
  readonly lines: LogLine[] = [];
  readonly stderr: string[] = [];
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;
  private readonly waiters = new Set<() => void>();

  readonly name: string;
  readonly role: 'api' | 'worker';

  constructor(name: string, role: 'api' | 'worker', env: Record<string, string>) {
    this.name = name;
    this.role = role;
    this.child = spawn(process.execPath, ['src/main.ts', `--role=${role}`], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    createInterface({ input: this.child.stdout! }).on('line', (text) => {
      try {
        this.lines.push(JSON.parse(text) as LogLine);
      } catch {
        this.lines.push({ level: 30, msg: text });
      }
      for (const wake of this.waiters) wake();
    });
    createInterface({ input: this.child.stderr! }).on('line', (text) => this.stderr.push(text));
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** The first line from `since` on that matches, waiting for it up to `timeoutMs`. */
  async waitFor(match: (line: LogLine) => boolean, timeoutMs: number, since = 0): Promise<LogLine> {
    const found = () => this.lines.slice(since).find(match);
    const now = found();
    if (now) return now;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`${this.name}: no such log line within ${timeoutMs} ms`));
      }, timeoutMs);
      const check = () => {
        const line = found();
        if (!line) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(line);
      };
      this.waiters.add(check);
    });
  }

  /** Error-level log lines and anything written to stderr, from line `since` on. */
  problems(since = 0): string[] {
    return [
      ...this.lines
        .slice(since)
        .filter((l) => l.level >= ERROR_LEVEL)
        .map((l) => `${this.name}: ${l.msg} ${JSON.stringify(l.err ?? '')}`),
      ...this.stderr.map((l) => `${this.name} (stderr): ${l}`),
    ];
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}
