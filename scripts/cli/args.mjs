// Command-line arguments: options by kind, positional arguments, and key=value options.

/** UsageError is a bad command line: exit code 2. */
export class UsageError extends Error {}

/**
 * parseOptions reads args against spec, a map from option name ("--law") to its kind:
 *   'flag'   takes no value (true when given);
 *   'value'  takes one value (the last one given wins);
 *   'list'   takes one value each time it is given (an array);
 *   'files'  takes every argument that follows up to the next option, each time it is given.
 * "--name=value" works for every option that takes a value. With assignments set, a positional
 * argument of the form key=value (the key made of letters, digits, "." and "-") is an option
 * and goes to `assignments` in order. Returns {opts, positional, assignments}.
 */
export function parseOptions(args, spec, { assignments: allowAssign = false } = {}) {
  const opts = {};
  const positional = [];
  const assignments = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) {
      const kv = allowAssign && /^([A-Za-z][\w.-]*)=(.*)$/s.exec(arg);
      if (kv) assignments.push([kv[1], kv[2]]);
      else positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    const kind = spec[name];
    if (!kind) throw new UsageError(`unknown option ${name}`);
    const key = name.slice(2);
    if (kind === 'flag') {
      if (eq >= 0) throw new UsageError(`${name} takes no value`);
      opts[key] = true;
      continue;
    }
    const values = [];
    if (eq >= 0) values.push(arg.slice(eq + 1));
    if (kind === 'files') {
      while (i + 1 < args.length && !args[i + 1].startsWith('--')) values.push(args[++i]);
    } else if (eq < 0) {
      if (i + 1 >= args.length) throw new UsageError(`${name} needs a value`);
      values.push(args[++i]);
    }
    if (values.length === 0) throw new UsageError(`${name} needs a value`);
    if (kind === 'value') opts[key] = values[0];
    else opts[key] = [...(opts[key] || []), ...values];
  }
  return { opts, positional, assignments };
}

/** number reads a number option: "2e-4", "500", "60k" (thousands), "1.5M" (millions). */
export function number(text, what) {
  const m = /^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)([kKmM]?)\s*$/.exec(String(text));
  if (!m) throw new UsageError(`${what}: ${JSON.stringify(text)} is not a number`);
  const scale = { '': 1, k: 1e3, K: 1e3, m: 1e6, M: 1e6 }[m[2]];
  return Number(m[1]) * scale;
}

/** splitFileValue splits "FILE=VALUE" at its first "=" (null when there is none). */
export function splitFileValue(text) {
  const eq = text.indexOf('=');
  return eq <= 0 ? null : { file: text.slice(0, eq), value: text.slice(eq + 1) };
}
