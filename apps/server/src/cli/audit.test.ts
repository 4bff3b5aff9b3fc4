import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { assess, type AllowEntry } from './audit.ts';

const via = (id: string, severity: string, name = 'somepkg') => ({
  source: 1,
  name,
  title: `${id} title`,
  url: `https://github.com/advisories/${id}`,
  severity,
});
const report = (...advisories: ReturnType<typeof via>[]) => ({
  auditReportVersion: 2,
  vulnerabilities: Object.fromEntries(
    advisories.map((a) => [a.name, { name: a.name, severity: a.severity, via: [a, 'another-package'] }]),
  ),
});
const entry = (advisory: string, reviewedOn: string): AllowEntry => ({
  advisory,
  package: 'somepkg',
  reason: 'only used at build time',
  reviewedOn,
});
const today = new Date('2026-11-22');

describe('assessing an npm audit report', () => {
  it('blocks high and critical advisories, not moderate or low ones', () => {
    const outcome = assess(
      report(via('GHSA-aaaa', 'high', 'a'), via('GHSA-bbbb', 'critical', 'b'), via('GHSA-cccc', 'moderate', 'c')),
      [],
      today,
    );
    expect(outcome.kind === 'checked' && outcome.blocking.map((a) => a.id).sort()).toEqual(['GHSA-aaaa', 'GHSA-bbbb']);
  });

  it('lets a reviewed advisory through, but only for 90 days after its review', () => {
    const fresh = assess(report(via('GHSA-aaaa', 'high')), [entry('GHSA-aaaa', '2026-10-01')], today);
    expect(fresh).toMatchObject({ kind: 'checked', blocking: [], allowed: [{ id: 'GHSA-aaaa' }] });
    const old = assess(report(via('GHSA-aaaa', 'high')), [entry('GHSA-aaaa', '2026-01-01')], today);
    expect(old).toMatchObject({ kind: 'checked', blocking: [{ id: 'GHSA-aaaa' }], stale: [{ advisory: 'GHSA-aaaa' }] });
  });

  it('reports an audit that could not be made instead of passing it as clean', () => {
    expect(assess({ message: '405 Method Not Allowed', statusCode: 405 }, [])).toEqual({
      kind: 'unavailable',
      reason: '405 Method Not Allowed',
    });
  });
});

/**
 * The registry's side of `npm audit`: the bulk advisory call, and the package documents npm reads
 * for the packages an advisory names. `advisories` maps package names to what the service reports.
 */
function startFakeRegistry(advisories: Record<string, unknown[]> | 'refuse'): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      if (advisories === 'refuse') {
        response.writeHead(405, { allow: 'GET,HEAD' }).end();
        return;
      }
      response.setHeader('content-type', 'application/json');
      if (request.method === 'POST' && request.url === '/-/npm/v1/security/advisories/bulk') {
        const raw = Buffer.concat(chunks);
        const asked = JSON.parse(
          (request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString(),
        ) as Record<string, string[]>;
        response.end(JSON.stringify(Object.fromEntries(Object.entries(advisories).filter(([name]) => name in asked))));
        return;
      }
      const name = decodeURIComponent(request.url!.slice(1));
      response.end(JSON.stringify({ name, 'dist-tags': { latest: '0.0.0' }, versions: {} }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`, server }),
    ),
  );
}

async function runAudit(registry: string, env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  // npm keeps advisories in its cache: each run gets an empty one, so only this fake answers.
  const cache = await mkdtemp(path.join(os.tmpdir(), 'yidu-npm-cache-'));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(import.meta.dirname, 'audit.ts')], {
      env: { ...process.env, npm_config_registry: registry, npm_config_cache: cache, ...env },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => {
      void rm(cache, { recursive: true, force: true });
      resolve({ code: code ?? -1, output });
    });
  });
}

describe('npm run audit against a registry', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('fails on a high-severity advisory in a production dependency', async () => {
    const fake = await startFakeRegistry({
      fastify: [
        {
          id: 1099999,
          url: 'https://github.com/advisories/GHSA-test-fake-0001',
          title: 'Request smuggling (test advisory)',
          severity: 'high',
          vulnerable_versions: '<99.0.0',
          cwe: ['CWE-444'],
          cvss: { score: 7.5, vectorString: null },
        },
      ],
    });
    server = fake.server;
    const result = await runAudit(fake.url);
    expect(result.code).toBe(1);
    expect(result.output).toContain('GHSA-test-fake-0001');
    expect(result.output).toContain('fastify');
  }, 60_000);

  it('passes when the service knows of nothing', async () => {
    const fake = await startFakeRegistry({});
    server = fake.server;
    const result = await runAudit(fake.url);
    expect(result.output).toContain('no high or critical advisory');
    expect(result.code).toBe(0);
  }, 60_000);

  it('says so when the advisory service refuses, and fails then if the audit is required', async () => {
    const fake = await startFakeRegistry('refuse');
    server = fake.server;
    const lenient = await runAudit(fake.url);
    expect(lenient.code).toBe(0);
    expect(lenient.output).toContain('NOT done');
    expect((await runAudit(fake.url, { AUDIT_REQUIRED: '1' })).code).toBe(1);
  }, 60_000);
});
