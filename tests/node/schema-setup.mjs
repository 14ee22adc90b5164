// Hands the page's schema module lawcore's own `schema` answer, as the page does at start-up:
// a test imports this module before any module of the page, so that their top-level code sees
// the laws, kinds and limits filled (it needs build/wasm/lawcore.wasm: `make build`).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setSchema } from '../../site/js/engine/schema.js';

const cli = fileURLToPath(new URL('../../scripts/lawcore.mjs', import.meta.url));
setSchema(JSON.parse(execFileSync(process.execPath, [cli, 'schema'], { encoding: 'utf8' })));
