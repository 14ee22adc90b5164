// Every browser test in one process, sharing one served build/site and one Chromium
// (harness.mjs, useServerAndBrowser), as `make test` runs them:
//
//   node --test tests/browser/suite.mjs
//
// `node --test` alone would run each file in a process of its own, each starting a server and a
// browser. Here each *.test.mjs is a suite named after it, its tests one after the other and its
// before/after hooks around them as when it runs alone (`node --test tests/browser/x.test.mjs`
// still works). BROWSER_CONCURRENCY files run at a time (default 2: on 2 cores a test mostly
// waits for the page's worker or a timer while another runs); BROWSER_TESTS (names separated
// by spaces) runs only those files. A file's tests have TEST_TIMEOUT ms (default 20 minutes)
// between them, and each as long.
import { describe, before, after } from 'node:test';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useServerAndBrowser } from './harness.mjs';

const dir = path.dirname(fileURLToPath(import.meta.url));
const files = (process.env.BROWSER_TESTS || '')
  .split(/\s+/)
  .filter(Boolean)
  .map((f) => path.basename(f));
if (files.length === 0) files.push(...readdirSync(dir).filter((f) => f.endsWith('.test.mjs')));
files.sort();

const concurrency = Number(process.env.BROWSER_CONCURRENCY || 2);
const timeout = Number(process.env.TEST_TIMEOUT || 1_200_000);

// A suite's timeout counts from its start, and node:test gives a test its suite's: the outer
// suite's is the whole run's, a file's its own and each of its tests'.
describe('the page in Chromium', { concurrency, timeout: timeout * files.length }, () => {
  // Held from before the first file to after the last: the files' own hooks never stop them.
  useServerAndBrowser(before, after);
  for (const file of files) {
    describe(file, { concurrency: 1, timeout }, async () => {
      await import(new URL(file, import.meta.url));
    });
  }
});
