#!/usr/bin/env node
// measure-cancel.mjs: how fast lawcore.wasm stops an analysis when it is cancelled, under node.
//
//   node scripts/measure-cancel.mjs [analysis ...]      (default: optimize wsd-ratio chinchilla)
//
// For each analysis (its default options) it prints the time of a whole run, then cancels
// runs once their progress reaches one half and prints the time from cancel() to the call's rejection, and that the
// same module then answers the next call. The page replaces a worker that has not stopped
// within 3 s of a cancel; a stop measured in milliseconds means it never has to.
import { startLawcore } from './cli/bridge.mjs';

const names = process.argv.slice(2).length ? process.argv.slice(2) : ['optimize', 'wsd-ratio', 'chinchilla'];
await startLawcore();
const lawcore = globalThis.lawcore;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (const name of names) {
  const request = JSON.stringify({ analysis: name });
  let reports = 0;
  const started = performance.now();
  await lawcore.run('analyze', request, undefined, () => {
    reports++;
    return false;
  });
  const whole = performance.now() - started;
  const stops = [];
  for (let round = 0; round < 5; round++) {
    let cancelledAt = 0;
    // cancel as a message would arrive: from the event loop, once half the analysis is done
    const call = lawcore.run('analyze', request, undefined, (fraction) => {
      if (fraction >= 0.5 && !cancelledAt) {
        cancelledAt = -1;
        setTimeout(() => {
          cancelledAt = performance.now();
          lawcore.cancel();
        }, 0);
      }
      return false;
    });
    const outcome = await call.then(
      () => 'answered',
      (err) => String((err && err.message) || err),
    );
    if (!/cancelled/.test(outcome)) throw new Error(`${name}: a cancelled run ${outcome}`);
    stops.push(performance.now() - cancelledAt);
  }
  await lawcore.run('analyze', JSON.stringify({ analysis: 'decomposition' }));
  console.log(
    `${name.padEnd(18)} whole run ${whole.toFixed(0).padStart(5)} ms (${reports} progress reports); `
      + `cancelled halfway: stopped ${median(stops).toFixed(1)} ms after cancel() (median of ${stops.length}, max ${Math.max(...stops).toFixed(1)}); the next call answered`,
  );
}
process.exit(0);
