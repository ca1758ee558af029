/**
 * Run by `npm run build` after the build: the built scripts and styles get their brotli and gzip
 * copies, which the server sends to browsers that take them (server/precompressed.ts).
 */
import path from 'node:path';
import { compressFolder } from '../server/precompressed.ts';

const folder = path.resolve('build/client/assets');
const started = Date.now();
const { files, identity, br, gzip } = await compressFolder(folder);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(
  `Compressed ${files} built files in ${((Date.now() - started) / 1000).toFixed(1)} s: ${kb(identity)} → brotli ${kb(br)}, gzip ${kb(gzip)}`,
);
