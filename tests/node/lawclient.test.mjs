// The page's side of the worker protocol (site/js/engine/lawclient.js), against a fake worker: which
// calls a new worker gets when the old one is replaced.
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { LawClient } from '../../site/js/engine/lawclient.js';

/** FakeWorker records what the page posts; the test answers as the worker would. */
class FakeWorker {
  static made = [];
  constructor(url) {
    this.url = url;
    this.posted = [];
    this.terminated = false;
    FakeWorker.made.push(this);
  }
  postMessage(msg) {
    this.posted.push(msg);
  }
  terminate() {
    this.terminated = true;
  }
  send(data) {
    this.onmessage({ data });
  }
  calls() {
    return this.posted.filter((m) => m.method);
  }
}

function withFakeWorkers(t) {
  FakeWorker.made = [];
  globalThis.Worker = FakeWorker;
  t.after(() => {
    delete globalThis.Worker;
  });
  mock.timers.enable({ apis: ['setTimeout'] });
  t.after(() => mock.timers.reset());
}

const settled = (p) =>
  p.then(
    (v) => ({ value: v }),
    (e) => ({ error: e.message }),
  );

test('a cancel that the worker does not honour in time rejects the calls it was for; a call made since goes to the new worker', async (t) => {
  withFakeWorkers(t);
  t.mock.method(console, 'info', () => {});
  const client = new LawClient('worker.js');
  const [first] = FakeWorker.made;
  first.send({ ready: true, version: 'test' });
  const long = settled(client.call('analyze', { analysis: 'optimize' }));
  client.cancel();
  const next = settled(client.call('analyze', { analysis: 'defaults' }, [{ steps: Float64Array.of(1, 2) }]));
  mock.timers.tick(3000); // the worker never answered: replaced
  assert.equal(first.terminated, true);
  assert.deepEqual(await long, { error: 'cancelled' });
  const second = FakeWorker.made[1];
  assert.ok(second, 'a new worker');
  const [resent] = second.calls();
  assert.equal(resent.request, JSON.stringify({ analysis: 'defaults' }));
  assert.deepEqual([...resent.columns[0].steps], [1, 2]);
  second.send({ id: resent.id, result: '{"answer":1}', columns: [] });
  assert.deepEqual(await next, { value: { result: { answer: 1 }, columns: [] } });
});

test('a worker that dies before lawcore loads passes its calls on; once lawcore has loaded, a death rejects them', async (t) => {
  withFakeWorkers(t);
  const client = new LawClient('worker.js');
  const fit = settled(client.call('fit', { law: 'annealing' }));
  FakeWorker.made[0].send({ fatal: 'cannot start lawcore-core.wasm: HTTP 503' });
  const second = FakeWorker.made[1];
  const [resent] = second.calls();
  assert.equal(resent.method, 'fit');
  second.send({ ready: true, version: 'test' });
  second.send({ id: resent.id, result: '{"law":"annealing"}', columns: [] });
  assert.deepEqual(await fit, { value: { result: { law: 'annealing' }, columns: [] } });

  const predict = settled(client.call('predict', {}));
  second.send({ fatal: 'crashed' });
  assert.deepEqual(await predict, { error: 'crashed' });
  assert.deepEqual(FakeWorker.made[2].calls(), [], 'the call that may have killed it is not sent again');
});
