/**
 * Dependency audit: `npm run audit:deps` (and `.ci/run`). Runs `npm audit --omit=dev` and fails on any
 * advisory of high or critical severity in what the application ships, unless `audit-allowlist.json`
 * at the repository root holds a reviewed entry for it:
 *
 *   [{ "advisory": "GHSA-xxxx-xxxx-xxxx", "package": "name", "reason": "why it does not apply", "reviewedOn": "2026-11-22" }]
 *
 * A review holds for 90 days; then the entry must be looked at again. When the registry's advisory
 * service cannot be reached (some mirrors and proxies refuse it), the audit says so and passes,
 * unless AUDIT_REQUIRED=1.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const REVIEW_DAYS = 90;
const BLOCKING = new Set(['high', 'critical']);

export interface AllowEntry {
  advisory: string;
  package: string;
  reason: string;
  reviewedOn: string;
}

export interface Advisory {
  id: string;
  package: string;
  title: string;
  severity: string;
  url: string;
}

export type AuditOutcome =
  | { kind: 'unavailable'; reason: string }
  | { kind: 'checked'; blocking: Advisory[]; allowed: Advisory[]; stale: AllowEntry[] };

/** The advisory's GHSA id from its URL (npm reports advisories by URL), else its numeric source. */
const advisoryId = (via: { url?: string; source?: number }) =>
  /GHSA-[\w-]+$/i.exec(via.url ?? '')?.[0] ?? String(via.source ?? 'unknown');

/** Reads the JSON report of `npm audit --json` against the allow-list, as of `today`. */
export function assess(report: unknown, allowList: AllowEntry[], today = new Date()): AuditOutcome {
  const r = report as {
    vulnerabilities?: Record<
      string,
      { via: (string | { url?: string; source?: number; name?: string; title?: string; severity?: string })[] }
    >;
    error?: { summary?: string };
    message?: string;
  };
  if (!r.vulnerabilities) return { kind: 'unavailable', reason: r.error?.summary || r.message || 'no audit report' };
  const found = new Map<string, Advisory>();
  for (const vulnerability of Object.values(r.vulnerabilities)) {
    for (const via of vulnerability.via) {
      // A string names another vulnerable package: its own advisories are listed under it.
      if (typeof via === 'string' || !BLOCKING.has(via.severity ?? '')) continue;
      const id = advisoryId(via);
      found.set(id, {
        id,
        package: via.name ?? '',
        title: via.title ?? '',
        severity: via.severity!,
        url: via.url ?? '',
      });
    }
  }
  const reviewedSince = today.getTime() - REVIEW_DAYS * 86_400_000;
  const current = allowList.filter((e) => new Date(e.reviewedOn).getTime() >= reviewedSince);
  const stale = allowList.filter((e) => !current.includes(e));
  const isAllowed = (a: Advisory) => current.some((e) => e.advisory.toLowerCase() === a.id.toLowerCase());
  const advisories = [...found.values()];
  return {
    kind: 'checked',
    blocking: advisories.filter((a) => !isAllowed(a)),
    allowed: advisories.filter(isAllowed),
    stale,
  };
}

function main(): number {
  const allowList = JSON.parse(readFileSync(path.join(ROOT, 'audit-allowlist.json'), 'utf8')) as AllowEntry[];
  const npm = spawnSync('npm', ['audit', '--omit=dev', '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  let report: unknown;
  try {
    report = JSON.parse(npm.stdout);
  } catch {
    report = { message: (npm.stderr || npm.error?.message || 'npm audit printed no report').trim() };
  }
  const outcome = assess(report, allowList);
  if (outcome.kind === 'unavailable') {
    console.warn(`Dependency audit NOT done: the advisory service could not be reached (${outcome.reason}).`);
    return process.env.AUDIT_REQUIRED === '1' ? 1 : 0;
  }
  for (const a of outcome.allowed) console.log(`allowed (reviewed): ${a.id} ${a.package} — ${a.title}`);
  for (const e of outcome.stale)
    console.log(
      `allow-list entry ${e.advisory} (${e.package}) was reviewed over ${REVIEW_DAYS} days ago: no longer applied`,
    );
  if (outcome.blocking.length === 0) {
    console.log('Dependency audit: no high or critical advisory in production dependencies.');
    return 0;
  }
  console.error('Dependency audit failed: high or critical advisories in production dependencies:');
  for (const a of outcome.blocking) console.error(`  ${a.severity} ${a.id} ${a.package} — ${a.title} ${a.url}`);
  console.error('Upgrade, or add a reviewed entry with its reason to audit-allowlist.json.');
  return 1;
}

// Run as a command, not when the tests import assess().
if (process.argv[1] === import.meta.filename) process.exit(main());
