// Every browser test in one process, sharing one served build/site and one Chromium
// (harness.mjs, useServerAndBrowser), as `make test` runs them:
//
//   node --test tests/browser/suite.mjs
//
// `node --test` alone would run each file in a process of its own, each starting a server and a
// browser. Here each *.test.mjs is a suite named after it, its tests one after the other and its
// before/after hooks around them as when it runs alone (`node --test tests/browser/x.test.mjs`
// still works). BROWSER_CONCURRENCY files run at a time (default 2: on 2 cores one test's page
// computes while another's waits), each test in a context of its own; then the files of ALONE,
// one at a time with nothing else running. BROWSER_TESTS (names separated by spaces) runs only
// those files. A file's tests have TEST_TIMEOUT ms (default 20 minutes) between them, and each
// as long.
import { describe, before, after } from 'node:test';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useServerAndBrowser } from './harness.mjs';

/**
 * ALONE are the files whose tests hold the page to real time, which another test's page
 * computing beside them would slow: a save's delay and a browser killed in the middle of one
 * (persist), a page that must keep drawing frames during a fit (responsive), cancels honoured
 * within 3 s, before the page replaces its worker (analysis-forms, memory, which also fits a
 * million points four times over).
 */
const ALONE = ['persist.test.mjs', 'responsive.test.mjs', 'analysis-forms.test.mjs', 'memory.test.mjs'];

const dir = path.dirname(fileURLToPath(import.meta.url));
const files = (process.env.BROWSER_TESTS || '')
  .split(/\s+/)
  .filter(Boolean)
  .map((f) => path.basename(f));
if (files.length === 0) files.push(...readdirSync(dir).filter((f) => f.endsWith('.test.mjs')));
// The largest files first (their size stands for their time): the last to start are short, and
// the two lanes end close together.
files.sort((a, b) => statSync(path.join(dir, b)).size - statSync(path.join(dir, a)).size || a.localeCompare(b));

const concurrency = Number(process.env.BROWSER_CONCURRENCY || 2);
const timeout = Number(process.env.TEST_TIMEOUT || 1_200_000);

// Held from before the first file to after the last: the files' own hooks never stop them.
useServerAndBrowser(before, after);

/**
 * suite runs files as suites, `concurrency` at a time. A suite's timeout counts from its start,
 * and node:test gives a test its suite's: the outer suite's is the whole run's, a file's its own
 * and each of its tests'.
 */
function suite(name, names, concurrency) {
  if (names.length === 0) return;
  describe(name, { concurrency, timeout: timeout * names.length }, () => {
    for (const file of names) {
      describe(file, { concurrency: 1, timeout }, async () => {
        await import(new URL(file, import.meta.url));
      });
    }
  });
}

suite(
  `the page in Chromium, ${concurrency} files at a time`,
  files.filter((f) => !ALONE.includes(f)),
  concurrency,
);
suite(
  'the page in Chromium, alone',
  files.filter((f) => ALONE.includes(f)),
  1,
);
