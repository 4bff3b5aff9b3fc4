import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/env.ts';
import { configRows } from '../src/config/env-docs.ts';
import { STRONG_PASSWORD } from './helpers.ts';

/**
 * deploy/compose.yaml, its Caddyfile and garage.toml, and the Dockerfile, read as Compose and Docker
 * would read them (no container engine runs here): the variables several machines need are set on
 * every API and worker process, the pieces point at each other (services, volumes, bucket, ports,
 * proxy upstream), and each Yidu service's environment is one Yidu accepts.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const DEPLOY = path.join(ROOT, 'deploy');
const read = (...parts: string[]) => readFileSync(path.join(...parts), 'utf8');

/** Compose's variable substitution: ${V}, ${V:-default}, ${V-default}, ${V:?error}, ${V?error} and $$. */
function interpolate(text: string, vars: Record<string, string | undefined>): string {
  return text.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g, (match, name, op, arg) => {
    if (match === '$$') return '$';
    const value = vars[name as string];
    const missing = op?.startsWith(':') ? !value : value === undefined;
    if (op === ':-' || op === '-') return missing ? arg : value!;
    if ((op === ':?' || op === '?') && missing) throw new Error(`${name}: ${arg}`);
    return value ?? '';
  });
}

/** deploy/env.example's variables with values made as its comments say. */
function exampleEnv(): Record<string, string> {
  const made: Record<string, string> = {
    POSTGRES_PASSWORD: randomBytes(24).toString('hex'),
    APP_SECRET: randomBytes(36).toString('base64url'),
    GARAGE_RPC_SECRET: randomBytes(32).toString('hex'),
    S3_ACCESS_KEY_ID: `GK${randomBytes(16).toString('hex')}`,
    S3_SECRET_ACCESS_KEY: randomBytes(32).toString('hex'),
    ADMIN_ACCOUNT: 'admin',
    ADMIN_PASSWORD: STRONG_PASSWORD,
  };
  const env: Record<string, string> = {};
  for (const line of read(DEPLOY, 'env.example').split('\n')) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
    if (m) env[m[1]!] = made[m[1]!] ?? m[2]!;
  }
  return env;
}

interface Service {
  image?: string;
  build?: string | { context: string };
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: string[] | Record<string, { condition: string }>;
  deploy?: { replicas?: number };
  healthcheck?: { test: string[] };
  restart?: string;
}
interface Compose {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

/** Compose substitutes variables in the values it has parsed (an empty value stays an empty string). */
function substitute(node: unknown, vars: Record<string, string | undefined>): unknown {
  if (typeof node === 'string') return interpolate(node, vars);
  if (Array.isArray(node)) return node.map((item) => substitute(item, vars));
  if (node && typeof node === 'object')
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, substitute(v, vars)]));
  return node;
}

const composeText = read(DEPLOY, 'compose.yaml');
const parsed: unknown = parse(composeText, { merge: true });
const env = exampleEnv();
const compose = substitute(parsed, env) as Compose;
const services = compose.services;
const yiduServices = Object.entries(services).filter(([, s]) => s.command?.[1] === 'apps/server/src/main.ts');
const withRole = (role: string) => yiduServices.filter(([, s]) => s.command!.includes(`--role=${role}`));
const environmentOf = (name: string) => services[name]!.environment ?? {};
const dependencies = (s: Service) =>
  Array.isArray(s.depends_on) ? Object.fromEntries(s.depends_on.map((d) => [d, 'service_started'])) : s.depends_on;

/** The variables the README says every process of several needs the same of (its table and its text). */
function clusterVariables(): string[] {
  const rows = configRows();
  const names = new Set(
    rows.filter((r) => /several machines|every process of one deployment/i.test(r.description)).map((r) => r.name),
  );
  const readme = read(ROOT, 'README.md').replace(/\n/g, ' ');
  const sentence = /each of them needs the same ([^.]*)/.exec(readme);
  if (!sentence) throw new Error('README.md no longer says what each process of several needs');
  for (const [, name] of sentence[1]!.matchAll(/`([A-Z0-9_]+\*?)`/g)) {
    const prefix = name!.endsWith('*') ? name!.slice(0, -1) : undefined;
    if (prefix === undefined) names.add(name!);
    else for (const row of rows.filter((r) => r.name.startsWith(prefix))) names.add(row.name);
  }
  return [...names].sort();
}

describe('deploy/compose.yaml', () => {
  it('refuses to start without its secrets, and deploy/env.example lists each of them', () => {
    const required = [...composeText.matchAll(/\$\{([A-Z0-9_]+):\?/g)].map((m) => m[1]!);
    expect(required.length).toBeGreaterThan(0);
    for (const name of new Set(required)) {
      expect(Object.keys(env), `${name} in env.example`).toContain(name);
      expect(() => substitute(parsed, { ...env, [name]: '' }), name).toThrow(name);
    }
  });

  it('runs two API and two worker processes, nothing shared between them but the database and the bucket', () => {
    expect(withRole('api').map(([name]) => name)).toEqual(['api']);
    expect(withRole('worker').map(([name]) => name)).toEqual(['worker']);
    for (const [name, service] of yiduServices) {
      expect(service.deploy?.replicas, name).toBeGreaterThanOrEqual(2);
      expect(service.build ?? service.image, name).toBeTruthy();
      // A named volume would be one directory for every replica: each keeps its own DATA_DIR instead.
      const named = (service.volumes ?? []).filter((v) => !v.startsWith('.') && !v.startsWith('/'));
      expect(named, `${name} mounts no shared volume`).toEqual([]);
      expect(environmentOf(name).DATA_DIR, name).toBeTruthy();
    }
  });

  it('sets every variable the README says several machines need, the same on API and workers', () => {
    const needed = clusterVariables();
    expect(needed).toEqual(expect.arrayContaining(['APP_SECRET', 'DATABASE_URL', 'PUBLIC_URL', 'S3_BUCKET']));
    for (const name of needed) {
      const values = yiduServices.map(([service]) => environmentOf(service)[name]);
      expect(values[0], `${name} is set`).toBeTruthy();
      expect(new Set(values).size, `${name} is the same everywhere`).toBe(1);
    }
    // Mail leaves from whichever worker runs the job: SMTP must be configurable on all of them.
    for (const [name] of withRole('worker')) expect(Object.keys(environmentOf(name)), name).toContain('SMTP_URL');
    // The first admin: safe on every replica (the first creates it, the others find it).
    for (const [name] of yiduServices) expect(environmentOf(name).ADMIN_ACCOUNT, name).toBe('admin');
  });

  it('gives each Yidu service an environment Yidu accepts, where an empty value means what unset means', () => {
    // As deploy/env.example fills it, and with nothing but the secrets compose insists on.
    const required = [...composeText.matchAll(/\$\{([A-Z0-9_]+):\?/g)].map((m) => m[1]!);
    const bare = substitute(parsed, Object.fromEntries(required.map((n) => [n, env[n]]))) as Compose;
    for (const [name, service] of [...yiduServices, ...yiduServices.map(([n]) => [n, bare.services[n]!] as const)]) {
      const role = service.command!.find((a) => a.startsWith('--role='))!.slice('--role='.length) as 'api';
      const environment = service.environment ?? {};
      const loaded = loadConfig(environment, role);
      expect(loaded.ok ? [] : loaded.errors, name).toEqual([]);
      if (!loaded.ok) continue;
      expect(loaded.config.databaseUrl, name).toBeTruthy();
      expect(loaded.config.s3?.bucket, name).toBe(env.S3_BUCKET ?? 'yidu');
      if (environment.ADMIN_ACCOUNT) expect(loaded.config.accounts.admin?.account, name).toBe('admin');
      for (const [key, value] of Object.entries(environment)) {
        if (value !== '') continue;
        const unset = { ...environment };
        delete unset[key];
        const without = loadConfig(unset, role);
        expect(without.ok && JSON.stringify(without.config), `${key}=""`).toBe(JSON.stringify(loaded.config));
      }
    }
  });

  it('points at services and volumes that exist, and waits for them in order', () => {
    const declared = Object.keys(compose.volumes ?? {});
    const used = new Set<string>();
    for (const [name, service] of Object.entries(services)) {
      expect(service.image ?? service.build, `${name} has an image`).toBeTruthy();
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0]!;
        if (source.startsWith('.')) expect(existsSync(path.join(DEPLOY, source)), volume).toBe(true);
        else used.add(source);
      }
      for (const [target, condition] of Object.entries(dependencies(service) ?? {})) {
        const dependency = services[target];
        expect(dependency, `${name} depends on ${target}`).toBeDefined();
        const how = typeof condition === 'string' ? condition : condition.condition;
        if (how === 'service_healthy') expect(dependency!.healthcheck, `${target} has a healthcheck`).toBeDefined();
        if (how === 'service_completed_successfully') expect(dependency!.restart, target).toBe('no');
      }
    }
    expect([...used].sort()).toEqual([...declared].sort());
    for (const [name, service] of yiduServices) {
      const needs = dependencies(service)!;
      expect(needs, name).toMatchObject({
        postgres: { condition: 'service_healthy' },
        'storage-init': { condition: 'service_completed_successfully' },
      });
    }
  });

  it('reaches PostgreSQL with the user, password and database the postgres service creates', () => {
    const url = new URL(environmentOf('api').DATABASE_URL!);
    const postgres = environmentOf(url.hostname);
    expect(url.username).toBe(postgres.POSTGRES_USER);
    expect(decodeURIComponent(url.password)).toBe(postgres.POSTGRES_PASSWORD);
    expect(url.pathname.slice(1)).toBe(postgres.POSTGRES_DB);
    expect(url.port).toBe('5432');
  });

  it('creates the bucket S3_BUCKET names, on the store S3_ENDPOINT names, with the key Yidu signs with', () => {
    const api = environmentOf('api');
    const endpoint = new URL(api.S3_ENDPOINT!);
    const store = services[endpoint.hostname]!;
    expect(store, `${endpoint.hostname} is a service`).toBeDefined();
    const garage = environmentOf(endpoint.hostname);
    expect(garage.GARAGE_DEFAULT_BUCKET).toBe(api.S3_BUCKET);
    expect(garage.GARAGE_DEFAULT_ACCESS_KEY).toBe(api.S3_ACCESS_KEY_ID);
    expect(garage.GARAGE_DEFAULT_SECRET_KEY).toBe(api.S3_SECRET_ACCESS_KEY);
    expect(store.command).toEqual(expect.arrayContaining(['server', '--single-node', '--default-bucket']));
    const toml = read(DEPLOY, 'garage.toml');
    expect(/s3_region = "([^"]+)"/.exec(toml)?.[1]).toBe(api.S3_REGION);
    expect(/api_bind_addr = "\[::\]:(\d+)"/.exec(toml)?.[1]).toBe(endpoint.port);
    // The init service: Yidu's own bucket check, with the same S3 settings, before any Yidu process.
    const init = services['storage-init']!;
    expect(init.command?.[1]).toBe('apps/server/src/cli/ensure-bucket.ts');
    expect(existsSync(path.join(ROOT, init.command![1]!))).toBe(true);
    for (const [key, value] of Object.entries(api))
      if (key.startsWith('S3_')) expect(init.environment![key]).toBe(value);
    expect(Object.keys(dependencies(init)!)).toContain(endpoint.hostname);
  });

  it('sends the proxy to every API replica on its port, unbuffered, and publishes what PUBLIC_URL says', () => {
    const caddyfile = read(DEPLOY, 'Caddyfile');
    const upstream = /dynamic a (\S+) (\d+)/.exec(caddyfile);
    expect(upstream, 'a dynamic upstream: every address of the API service').not.toBeNull();
    const [, host, port] = upstream!;
    expect(withRole('api').map(([name]) => name)).toContain(host);
    const apiPort = environmentOf(host!).PORT ?? /ENV .*\bPORT=(\d+)/.exec(read(ROOT, 'Dockerfile'))?.[1];
    expect(port).toBe(apiPort);
    expect(services[host!]!.healthcheck?.test.join(' ')).toContain(`127.0.0.1:${apiPort}/api/health`);
    expect(caddyfile).toMatch(/flush_interval -1/);
    const site = /^:(\d+) \{/m.exec(caddyfile)?.[1];
    const proxy = Object.values(services).find((s) => s.volumes?.some((v) => v.startsWith('./Caddyfile:')))!;
    const published = proxy.ports!.map((p) => p.split(':'));
    expect(published.map(([, inside]) => inside)).toContain(site);
    const publicUrl = new URL(environmentOf('api').PUBLIC_URL!);
    expect(published.map(([outside]) => outside)).toContain(publicUrl.port);
    expect(environmentOf('api').TRUST_PROXY).toBe('true');
  });
});

describe('Dockerfile', () => {
  const dockerfile = read(ROOT, 'Dockerfile');
  const lines = dockerfile.split('\n');
  const at = (pattern: RegExp) => lines.findIndex((l) => pattern.test(l));

  it('runs the Node the project brings, with the patches applied and the web app built', () => {
    const bundled = JSON.parse(read(ROOT, 'package.json')).devDependencies.node as string;
    for (const [, major] of dockerfile.matchAll(/^FROM node:(\d+)/gm)) expect(major).toBe(bundled.split('.')[0]);
    expect(at(/^COPY patches\//)).toBeGreaterThan(-1);
    expect(at(/^COPY patches\//)).toBeLessThan(at(/^RUN npm ci/));
    expect(at(/npm run build/)).toBeGreaterThan(at(/^COPY \. \./));
    const cmd = JSON.parse(/^CMD (.*)$/m.exec(dockerfile)![1]!) as string[];
    expect(existsSync(path.join(ROOT, cmd[1]!))).toBe(true);
    // The checkout's own node_modules and data must not be copied over what the image installed.
    const ignored = read(ROOT, '.dockerignore').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', 'data']));
  });
});
