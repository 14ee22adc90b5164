// The corpus of bad files the security test feeds through the page's file input, one at a time.
// Each entry: [file name, contents (string or Buffer)].
const depth = 100000;

export const BAD_FILES = [
  ['empty.csv', ''],
  ['whitespace.csv', ' \n\t\n  \n'],
  ['binary.csv', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256))],
  ['nul-bytes.csv', Buffer.from('step,loss\n1\u0000,3.5\n2,3.4\n')],
  ['header-only.csv', 'step,loss\n'],
  ['ragged.csv', 'step,loss\n1,3.5\n2\n3,3.3,9,9\n'],
  ['nan-loss.csv', 'step,loss\n1,3.5\n2,NaN\n3,3.3\n'],
  ['inf-loss.csv', 'step,loss\n1,3.5\n2,Inf\n3,3.3\n'],
  ['negative-loss.csv', 'step,loss\n1,3.5\n2,-1\n3,3.3\n'],
  ['zero-loss.csv', 'step,loss\n1,3.5\n2,0\n3,3.3\n'],
  ['unsorted-steps.csv', 'step,loss\n1,3.5\n3,3.3\n2,3.4\n'],
  ['duplicate-steps.csv', 'step,loss\n1,3.5\n2,3.4\n2,3.39\n3,3.3\n'],
  ['bom-header-only.csv', '\ufeffstep,loss\n'],
  ['crlf-bad-value.csv', 'step,loss\r\n1,3.5\r\n2,oops\r\n'],
  ['decimal-commas.csv', 'step;loss\n1;3,5\n2;3,4\n'],
  ['json-bomb.json', '['.repeat(depth) + ']'.repeat(depth)],
  ['deep-object.json', '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)],
  ['page.html', '<!doctype html><html><body><script>alert(1)</script><img src=x onerror=alert(2)></body></html>'],
  ['huge-numbers.csv', 'step,loss\n1,1e400\n2,3.4\n'],
  ['huge-step.csv', 'step,loss\n1e400,3.5\n2,3.4\n'],
  ['no-loss-column.csv', 'step,accuracy\n1,0.5\n2,0.6\n'],
  ['text-steps.csv', 'step,loss\none,3.5\ntwo,3.4\n'],
  ['truncated.json', '{"log_history": [{"step": 1, "loss": 3.5}, {"step": 2, "lo'],
  ['trainer-state-no-loss.json', '{"log_history": [{"step": 1, "eval_accuracy": 0.5}]}'],
  ['invalid-utf8.csv', Buffer.from([0x73, 0x74, 0x65, 0x70, 0x2c, 0x6c, 0x6f, 0x73, 0x73, 0x0a, 0x31, 0x2c, 0xff, 0xfe, 0x0a])],
  ['step-zero-only.csv', 'step,loss\n0,3.5\n'],
];
