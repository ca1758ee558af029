import type { Server } from 'node:http';
import { ConfigError } from './config.ts';

/**
 * Starts a server listening; a port already taken (or not ours to take) is a refused start that
 * says in one line which setting to change, never a stack trace. `setting` names it and `hint`
 * says where the port came from.
 */
export async function listen(
  server: Server,
  options: { port: number; host: string; setting: string; hint?: string },
): Promise<void> {
  const { port, host, setting, hint } = options;
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      const where = `port ${port} on ${host}${hint ? ` (${hint})` : ''}`;
      if (error.code === 'EADDRINUSE')
        reject(
          new ConfigError(`Cannot start: ${where} is already in use. Set ${setting} to a free port, or 0 for any.`),
        );
      else if (error.code === 'EACCES')
        reject(
          new ConfigError(
            `Cannot start: ${where} needs privileges this process lacks. Set ${setting} to a port above 1023.`,
          ),
        );
      else reject(error);
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}
