/**
 * The side of a throughput benchmark that drives the load generator (bench/throughput-client.ts,
 * autocannon in a process of its own), shared by bench/throughput.ts and bench/ads.ts: one run at
 * a time over IPC, and the median of a few rounds.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { ClientResult, ClientRun, FromClient, ToClient } from './throughput-client.ts';

export type { ClientResult, ClientRun };

/** The autocannon process, one run at a time. */
export class ThroughputClient {
  private readonly child: ChildProcess;

  private constructor(child: ChildProcess) {
    this.child = child;
  }

  static async start(): Promise<ThroughputClient> {
    const child = fork(new URL('./throughput-client.ts', import.meta.url), {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`the client exited with code ${code}`)));
    });
    return new ThroughputClient(child);
  }

  run(run: ClientRun): Promise<ClientResult> {
    return new Promise((resolve, reject) => {
      this.child.once('message', (reply: FromClient) => {
        if (reply.type === 'result') resolve(reply.result);
        else reject(new Error(reply.type === 'error' ? reply.message : 'unexpected reply from the client'));
      });
      this.child.send({ type: 'run', run } satisfies ToClient);
    });
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.send({ type: 'stop' } satisfies ToClient);
    await exited;
  }
}

/** The median of the values (of an even count, the mean of the middle two). */
export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
