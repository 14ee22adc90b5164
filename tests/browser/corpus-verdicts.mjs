// What lawcore itself answers for each file of the bad-input corpus, for the browser test that
// checks the page says the same (security.test.mjs). Not a test: run by it as
//   node tests/browser/corpus-verdicts.mjs DIR      (DIR written by scripts/badcorpus)
// It imports every file listed in DIR/index.json with lawcore.wasm under node (the Go importer,
// through the bridge the page uses) and prints {name: {error} | {ask} | {curves}} as JSON: the
// message of a file refused, the question of a file that leaves a choice open, the number of
// curves of a file read.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startLawcore } from '../../scripts/cli/bridge.mjs';

const dir = process.argv[2];
const index = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8'));
const lawcore = await startLawcore();
const verdicts = {};
for (const { name } of index) {
  const bytes = new Uint8Array(readFileSync(path.join(dir, name)));
  try {
    const { result } = await lawcore.call('import', { name, choice: {} }, [bytes]);
    verdicts[name] = result.ambiguity ? { ask: result.ambiguity.message } : { curves: result.curves.length };
  } catch (err) {
    verdicts[name] = { error: err.message };
  }
}
process.stdout.write(JSON.stringify(verdicts));
process.exit(0); // the Go program would keep running
