// Hands the page's schema module lawcore's schema as the page has it at start-up: the full
// bridge's `schema` answer, written to wasm/schema.json by a Go test (TestCoreSchemaFile, which
// fails when the file is not lawcore's answer) and bundled into the page (site/js/main.js). A
// test imports this module before any module of the page, so that their top-level code sees the
// laws, kinds and limits filled.
import { readFileSync } from 'node:fs';
import { setSchema } from '../../site/js/engine/schema.js';

setSchema(JSON.parse(readFileSync(new URL('../../wasm/schema.json', import.meta.url), 'utf8')));
