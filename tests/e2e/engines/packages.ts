/**
 * What each browser engine of the cross-engine tests needs on the machine: Debian's packages, by a
 * file each installs (.ci/run and `npm test` install them; engines.ts runs the files).
 */
import { existsSync } from 'node:fs';

export const ENGINE_FILES = {
  webkit: {
    '/usr/bin/WebKitWebDriver': 'webkit2gtk-driver',
    '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser': 'webkit2gtk-driver',
    '/usr/bin/Xvfb': 'xvfb',
  },
  firefox: {
    '/usr/bin/firefox-esr': 'firefox-esr',
  },
} as const satisfies Record<string, Record<string, string>>;

export type EngineName = keyof typeof ENGINE_FILES;

/** The packages an engine lacks here (none when it can run). */
export function missingPackages(engine: EngineName): string[] {
  return [
    ...new Set(
      Object.entries(ENGINE_FILES[engine])
        .filter(([file]) => !existsSync(file))
        .map(([, name]) => name),
    ),
  ];
}

/**
 * The port of the proxy in front of the site (error-proxy.ts) in this engine's tests, chosen once
 * by playwright.config.ts: the site must know the proxy's origin beforehand, since the pages it
 * serves there embed the payment sandbox's card frame, which only our own origins may embed.
 */
export const proxyPortVariable = (engine: EngineName) => `E2E_${engine.toUpperCase()}_PROXY_PORT`;
