import { ConfigError, loadConfig } from './config.ts';

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

// Loaded once the configuration is accepted: a refused start says why at once, without loading the server.
const { startServer } = await import('./server.ts');
// `--dev`: pages from Vite's dev server with hot reload (npm run dev).
// A port in use is said in one line (server/listen.ts), as a refused configuration is.
const server = await startServer(config, { dev: process.argv.includes('--dev') }).catch((error: unknown) => {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
});
console.log(`Tillpoint is ready at ${server.url.replace('127.0.0.1', 'localhost')}/en`);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.logger.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        server.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
process.on('unhandledRejection', (reason) => server.logger.error({ err: reason }, 'unhandled rejection'));
