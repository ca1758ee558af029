import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.ts';
import { users } from './users.ts';

export interface ExtraServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * A second server from the same build, with settings of its own (such as a tag manager id), on a
 * fresh embedded database. For the few tests about configuration the main server does not have.
 */
export async function startExtraServer(
  settings: Record<string, string>,
  options: { prepareWith?: Record<string, string> } = {},
): Promise<ExtraServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tillpoint-e2e-extra-'));
  const env = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PAYMENT_SANDBOX: '1',
    // The sandbox on a host name of the site's port takes no port of its own.
    ...(settings.PAYMENT_SANDBOX_HOST ? {} : { PAYMENT_SANDBOX_PORT: '0' }),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    APP_SECRET: randomBytes(48).toString('base64url'),
    // A production start needs the first admin's password (config.ts): the demo admin's, as on the main server.
    ADMIN_PASSWORD: users.admin.password,
    LOG_LEVEL: 'warn',
    ...settings,
  };
  // The demo accounts first, as on the main server: a production start does not make them (demo-accounts.ts).
  // `prepareWith`: settings of the preparation alone (a database the test reaches in its own
  // process, which this synchronous run would block, is prepared directly).
  const prepared = spawnSync(process.execPath, ['tests/e2e/demo-accounts.ts'], {
    env: { ...env, ...options.prepareWith },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (prepared.status !== 0) {
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error("the extra server's database could not be prepared");
  }
  const child: ChildProcess = spawn(process.execPath, ['server/index.ts'], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const healthy = await fetch(`${url}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return { url, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`the extra server did not start on ${url}`);
}
