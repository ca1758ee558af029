import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Redis } from 'ioredis';
import { freePort } from '../e2e/free-port.ts';

/*
 * Several production instances on one machine, as operators run them (issue 20): each a process of
 * its own from the same build, on one fresh database of the local PostgreSQL and the local Redis
 * (keys and events of this run only), sharing one data folder (uploads, exports) as a shared volume,
 * behind HAProxy from Debian's packages with health checks and retries. The test talks to each
 * instance directly and to the load balancer.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const POSTGRES_URL = process.env.CLUSTER_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.CLUSTER_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const HAPROXY = '/usr/sbin/haproxy';
/** The Redis server the outage scenarios start and stop themselves (Debian's `redis-server`). */
export const REDIS_SERVER = '/usr/bin/redis-server';
export const ADMIN = { email: 'admin@tillpoint.test', password: 'Admin12345' };

async function answers(check: () => Promise<unknown>): Promise<boolean> {
  try {
    await check();
    return true;
  } catch {
    return false;
  }
}

/** Why the cluster cannot run here (a missing part), or null. With CI=true nothing may be missing. */
export async function clusterSkipReason(): Promise<string | null> {
  if (!existsSync(HAPROXY)) {
    const root =
      process.getuid?.() === 0 && spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
    if (root)
      spawnSync('sh', ['-c', 'apt-get update && apt-get install -y haproxy'], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    if (!existsSync(HAPROXY)) return `HAProxy is missing: install it (sudo apt-get install -y haproxy)`;
  }
  const database = await answers(async () => {
    const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2_000 });
    await client.connect();
    await client.end();
  });
  if (!database) return `no PostgreSQL at ${POSTGRES_URL}`;
  const redis = await answers(async () => {
    const client = new Redis(REDIS_URL, {
      lazyConnect: true,
      connectTimeout: 2_000,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    await client.connect();
    await client.ping();
    client.disconnect();
  });
  if (!redis) return `no Redis at ${REDIS_URL}`;
  if (!postgresBin()) return `PostgreSQL's server programs (initdb, postgres) are missing under ${POSTGRES_LIB}`;
  if (!existsSync(REDIS_SERVER)) {
    const root =
      process.getuid?.() === 0 && spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
    if (root)
      spawnSync('sh', ['-c', 'apt-get update && apt-get install -y redis-server'], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    if (!existsSync(REDIS_SERVER)) return `redis-server is missing: install it (sudo apt-get install -y redis-server)`;
  }
  return null;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface KeyedWrites {
  /** The emails whose write was answered with a 2xx, in the order they were. */
  acknowledged: string[];
  /** How many writes were started. */
  sent(): number;
  /** Starts no more writes, and waits for those under way to be answered or given up. */
  stop(): Promise<void>;
}

/**
 * Writes as an app sends them, one every `everyMs` until stopped: each with an email and a key of
 * its own (`${prefix}${n}`), sent again with that key every 250 ms until `send` answers a 2xx or
 * `keepTrying` (the attempts made, when the first was sent) says to give up.
 */
export function keyedWrites(options: {
  prefix: string;
  everyMs: number;
  send: (email: string, key: string) => Promise<number>;
  keepTrying: (attempts: number, startedAt: number) => boolean;
}): KeyedWrites {
  const acknowledged: string[] = [];
  const writes: Promise<void>[] = [];
  let writing = true;
  let sent = 0;
  const write = async (email: string, key: string) => {
    const startedAt = Date.now();
    for (let attempts = 0; options.keepTrying(attempts, startedAt); attempts += 1) {
      const status = await options.send(email, key);
      if (status >= 200 && status < 300) {
        acknowledged.push(email);
        return;
      }
      await sleep(250);
    }
  };
  const writer = (async () => {
    while (writing) {
      writes.push(write(`${options.prefix}${sent}@example.com`, `${options.prefix}${sent}`));
      sent += 1;
      await sleep(options.everyMs);
    }
    await Promise.all(writes);
  })();
  return {
    acknowledged,
    sent: () => sent,
    stop() {
      writing = false;
      return writer;
    },
  };
}

/** Waits until `check` holds, polling; fails with what was awaited after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(20);
  }
  return Date.now() - started;
}

export interface Instance {
  name: string;
  url: string;
  process: ChildProcess;
  /** Ends the process with a signal and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface Cluster {
  a: Instance;
  b: Instance;
  /** The load balancer's address. */
  url: string;
  /** The cluster's own database (a fresh one on the local PostgreSQL), as the test reaches it. */
  databaseUrl: string;
  /** How long the two instances took to be healthy, started at the same moment. */
  startMs: number;
  /** Starts a stopped instance again on its port; answers once it is healthy and the balancer uses it. */
  restart(name: 'a' | 'b'): Promise<Instance>;
  close(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Builds the pages when there is no build yet (npm test's end-to-end stage has made one). */
export function ensureBuild(): void {
  if (existsSync(path.join(ROOT, 'build', 'server', 'index.js'))) return;
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

export interface ClusterOptions {
  /** The instances' Redis (the machine's unless given; keys under a prefix of the run either way). */
  redisUrl?: string;
  /** The PostgreSQL server the cluster's database is made on (the machine's unless given: a server of the test's own). */
  postgresUrl?: string;
  /** More settings, the same for both instances (they win over the defaults below). */
  env?: Record<string, string>;
  /** Node's own options for an instance, before the server's script (a bench's inspector port). */
  nodeOptions?: (name: string) => string[];
}

/** Starts two instances at the same moment on a fresh database, then the load balancer in front. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  ensureBuild();
  const redisUrl = options.redisUrl ?? REDIS_URL;
  const run = randomBytes(5).toString('hex');
  const database = `tillpoint_cluster_${run}`;
  const postgresUrl = options.postgresUrl ?? POSTGRES_URL;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
  const databaseUrl = Object.assign(new URL(postgresUrl), { pathname: `/${database}` }).toString();
  const folder = mkdtempSync(path.join(os.tmpdir(), 'tillpoint-cluster-'));
  const secret = randomBytes(48).toString('base64url');
  const [portA, portB, portLb] = await Promise.all([freePort(), freePort(), freePort()]);

  const instance = (name: string, port: number): Instance => {
    const child = spawn(process.execPath, [...(options.nodeOptions?.(name) ?? []), 'server/index.ts'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: `cluster-${run}`,
        INSTANCE_NAME: name,
        // One secret for all: a token signed by one instance is read by the others.
        APP_SECRET: secret,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        // One folder for both, as a volume every instance mounts: uploads and exports written by one are read by the others.
        DATA_DIR: path.join(folder, 'data'),
        PASSWORD_HASHING: 'fast',
        // No real payments: each instance's own sandbox gateway.
        PAYMENT_SANDBOX: '1',
        PAYMENT_SANDBOX_PORT: '0',
        // Every request of the test comes from 127.0.0.1.
        LOGIN_ATTEMPTS_PER_IP: '10000',
        FORM_SUBMISSIONS_PER_IP: '10000',
        NEWSLETTER_SIGNUPS_PER_IP: '10000',
        // The proxy in front says who the client is.
        TRUST_PROXY: 'loopback',
        LOG_LEVEL: 'error',
        ...options.env,
      },
    });
    return {
      name,
      url: `http://127.0.0.1:${port}`,
      process: child,
      async stop(signal: NodeJS.Signals = 'SIGTERM') {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const done = exited(child);
        child.kill(signal);
        await done;
      },
    };
  };

  const started = Date.now();
  let a = instance('a', portA);
  let b = instance('b', portB);
  const healthy = async (server: Instance) => {
    if (server.process.exitCode !== null)
      throw new Error(`instance ${server.name} stopped at start-up (exit code ${server.process.exitCode})`);
    return fetch(`${server.url}/health`).then(
      (response) => response.ok,
      () => false,
    );
  };
  let lb: ChildProcess | undefined;
  const close = async () => {
    if (lb && lb.exitCode === null) {
      const done = exited(lb);
      lb.kill('SIGTERM');
      await done;
    }
    await Promise.all([a.stop(), b.stop()]);
    const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      const keys = await redis.keys(`cluster-${run}:*`);
      if (keys.length > 0) await redis.del(...keys);
    } catch {
      // A Redis of the test's own that it has stopped: nothing of the run is left in it.
    } finally {
      redis.disconnect();
    }
    const client = new pg.Client({ connectionString: postgresUrl });
    try {
      await client.connect();
      await client.query(`drop database if exists ${database} with (force)`);
      await client.end();
    } catch {
      // A server of the test's own, stopped: its data folder goes with it.
    }
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await until(async () => (await healthy(a)) && (await healthy(b)), 'both instances to be healthy', 120_000);
    const startMs = Date.now() - started;
    const config = path.join(folder, 'haproxy.cfg');
    writeFileSync(
      config,
      [
        'global',
        '  maxconn 4096',
        'defaults',
        '  mode http',
        '  timeout connect 1s',
        '  timeout client 60s',
        '  timeout server 30s',
        '  timeout tunnel 1h',
        // A request that could not reach an instance goes to another; one an instance received is never sent twice.
        '  retries 3',
        '  option redispatch',
        '  retry-on conn-failure empty-response',
        'frontend site',
        `  bind 127.0.0.1:${portLb}`,
        '  option forwardfor',
        '  default_backend instances',
        'backend instances',
        '  balance roundrobin',
        '  option httpchk GET /health/live',
        '  http-check expect status 200',
        `  server a 127.0.0.1:${portA} check inter 500 fall 2 rise 2`,
        `  server b 127.0.0.1:${portB} check inter 500 fall 2 rise 2`,
        '',
      ].join('\n'),
    );
    // Quiet: an instance going down is what the test does; a configuration error still shows.
    lb = spawn(HAPROXY, ['-db', '-q', '-f', config], { stdio: ['ignore', 'ignore', 'inherit'] });
    const url = `http://127.0.0.1:${portLb}`;
    await until(
      () =>
        fetch(`${url}/health/live`).then(
          (response) => response.ok,
          () => false,
        ),
      'the load balancer',
      20_000,
    );
    const cluster: Cluster = {
      a,
      b,
      url,
      databaseUrl,
      startMs,
      close,
      async restart(name) {
        const again = instance(name, name === 'a' ? portA : portB);
        if (name === 'a') a = cluster.a = again;
        else b = cluster.b = again;
        await until(() => healthy(again), `instance ${name} to be healthy again`, 60_000);
        // The balancer's checks: two in a row (`rise 2`), every 500 ms.
        await until(
          async () => {
            const seen = new Set<string | null>();
            for (let index = 0; index < 4; index += 1)
              seen.add((await fetch(`${url}/health/live`)).headers.get('x-instance'));
            return seen.has(name);
          },
          `the balancer to send requests to ${name}`,
          20_000,
        );
        return again;
      },
    };
    return cluster;
  } catch (error) {
    await close();
    throw error;
  }
}

export interface RedisServer {
  url: string;
  /** Whether it runs now. */
  readonly running: boolean;
  /** Stops the server (SIGTERM) and waits for it to exit: its clients' connections close. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty; answers once it answers. */
  start(): Promise<void>;
}

/**
 * A Redis server of the test's own on a free port, never the machine's shared one, so a scenario
 * may stop it: nothing kept on disk (`--save ''`, no append-only file), so it restarts empty.
 */
/** Where Debian keeps PostgreSQL's server programs, one folder per major version. */
const POSTGRES_LIB = '/usr/lib/postgresql';

/** The newest installed version's `bin` folder with `initdb` and `postgres`, or null. */
function postgresBin(): string | null {
  if (!existsSync(POSTGRES_LIB)) return null;
  const versions = readdirSync(POSTGRES_LIB)
    .filter(
      (name) =>
        existsSync(path.join(POSTGRES_LIB, name, 'bin', 'initdb')) &&
        existsSync(path.join(POSTGRES_LIB, name, 'bin', 'postgres')),
    )
    .sort((x, y) => Number(y) - Number(x));
  return versions[0] ? path.join(POSTGRES_LIB, versions[0], 'bin') : null;
}

export interface PostgresServer {
  /** The server's `postgres` database, as a superuser reaches it (trust, on 127.0.0.1). */
  url: string;
  readonly running: boolean;
  /** Stops it: `SIGINT` is PostgreSQL's fast shutdown (sessions ended, connections refused). */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port and data; answers once it accepts connections. */
  start(): Promise<void>;
  /** Stops it and removes its data. */
  close(): Promise<void>;
}

/**
 * A PostgreSQL server of the test's own (Debian's server programs, a fresh data folder, a free
 * port), never the machine's shared one, so a scenario may stop it. PostgreSQL refuses to run as
 * root: as root (CI), its programs run as the `postgres` account, which owns the folder.
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = postgresBin();
  if (!bin) throw new Error(`PostgreSQL's server programs are missing under ${POSTGRES_LIB}`);
  const port = await freePort();
  const folder = mkdtempSync(path.join(os.tmpdir(), 'tillpoint-postgres-'));
  const data = path.join(folder, 'data');
  let owner: { uid: number; gid: number } | undefined;
  if (process.getuid?.() === 0) {
    const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
    owner = { uid: id('-u'), gid: id('-g') };
    chownSync(folder, owner.uid, owner.gid);
  }
  const init = spawnSync(
    path.join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--locale=C'],
    { stdio: 'ignore', ...owner },
  );
  if (init.status !== 0) throw new Error(`initdb failed (exit code ${init.status})`);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let child: ChildProcess | undefined;
  const accepts = () =>
    answers(async () => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
      client.on('error', () => undefined);
      await client.connect();
      await client.end();
    });
  const server: PostgresServer = {
    url,
    get running() {
      return Boolean(child && child.exitCode === null && child.signalCode === null);
    },
    async start() {
      child = spawn(
        path.join(bin, 'postgres'),
        [
          '-D',
          data,
          '-p',
          String(port),
          '-c',
          'listen_addresses=127.0.0.1',
          '-c',
          `unix_socket_directories=${folder}`,
          '-c',
          'fsync=off',
          '-c',
          'max_connections=200',
        ],
        { stdio: 'ignore', ...owner },
      );
      await until(accepts, `PostgreSQL on port ${port}`, 30_000);
    },
    async stop(signal: NodeJS.Signals = 'SIGINT') {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const done = exited(child);
      child.kill(signal);
      await done;
    },
    async close() {
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const answers = async () => {
    const client = new Redis(url, {
      lazyConnect: true,
      connectTimeout: 500,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  };
  const server: RedisServer = {
    url,
    get running() {
      return Boolean(child && child.exitCode === null && child.signalCode === null);
    },
    async start() {
      child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: 'ignore',
      });
      await until(answers, `redis-server on port ${port}`, 10_000);
    },
    async stop() {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const done = exited(child);
      child.kill('SIGTERM');
      await done;
    },
  };
  await server.start();
  return server;
}
