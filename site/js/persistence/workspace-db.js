// The IndexedDB database that keeps the user's work in this browser: the one module that
// touches IndexedDB. Two object stores: `workspace` holds the record (persist.js) under one
// key, `arrays` the large arrays it refers to, each a Float64Array under its id. A save is one
// readwrite transaction over both (the arrays not stored yet, the record, and the deletion of
// arrays nothing refers to any more), so a tab closed or a browser killed in the middle of it
// leaves the previous save whole: IndexedDB commits a transaction entirely or not at all.
//
// Nothing here leaves the browser. Failures come out as StorageError with a kind the page can
// explain: 'refused' (no IndexedDB, or the browser refuses it: private browsing, storage
// blocked), 'newer' (the database was made by a newer version of the page), 'quota' (the
// origin's storage is full), 'closed' (another tab upgraded the database), 'failed' (anything
// else), 'timeout' (the browser did not answer).

/** DB_NAME is the database's name. */
export const DB_NAME = 'annealing-calculator';
/**
 * EXAMPLE_DB_NAME is the database that keeps the start-up example as this build fitted and
 * predicted it, apart from the user's work (controllers/workspace.js, saveFittedExample): the
 * same two stores.
 */
export const EXAMPLE_DB_NAME = 'annealing-calculator-example';
/** DB_VERSION: 1 had the store `workspace` alone (records of format 1); 2 adds `arrays`. */
export const DB_VERSION = 2;
/** RECORD_KEY is the key of the one record in `workspace`. */
export const RECORD_KEY = 'current';
const STORES = ['workspace', 'arrays'];

/** StorageError is a failure of the browser's storage, with kind saying which (see the header). */
export class StorageError extends Error {
  constructor(kind, message) {
    super(message);
    this.name = 'StorageError';
    this.kind = kind;
  }
}

/** storageError turns what IndexedDB threw or reported into a StorageError. */
function storageError(err, doing) {
  if (err instanceof StorageError) return err;
  const name = (err && err.name) || '';
  const detail = (err && err.message) || String(err || 'unknown error');
  if (name === 'QuotaExceededError')
    return new StorageError('quota', `${doing}: the browser's storage for this page is full`);
  if (name === 'VersionError')
    return new StorageError('newer', `${doing}: the stored work was written by a newer version of this page`);
  if (name === 'SecurityError' || name === 'InvalidAccessError')
    return new StorageError('refused', `${doing}: the browser refuses to store data for this page (${detail})`);
  if (name === 'InvalidStateError' && /clos/i.test(detail))
    return new StorageError('closed', `${doing}: the database was closed`);
  return new StorageError('failed', `${doing}: ${name ? `${name}: ` : ''}${detail}`);
}

/**
 * openWorkspaceDB opens (creating or upgrading) the database (name: the work's, or the
 * example's). It resolves to a WorkspaceDB, or
 * rejects with a StorageError; when the browser does not answer within timeoutMs (an open
 * blocked by another tab, say) it rejects with kind 'timeout'.
 */
export function openWorkspaceDB({ idb = globalThis.indexedDB, timeoutMs = 5000, name = DB_NAME } = {}) {
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (fn, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn(value);
    };
    const timer = setTimeout(
      () =>
        done(reject, new StorageError('timeout', `opening the browser's storage: no answer in ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    let request;
    try {
      if (!idb) throw new StorageError('refused', 'this browser has no IndexedDB');
      request = idb.open(name, DB_VERSION);
    } catch (err) {
      return done(
        reject,
        err instanceof StorageError
          ? err
          : new StorageError('refused', `opening the browser's storage: ${(err && err.message) || err}`),
      );
    }
    request.onupgradeneeded = () => {
      const db = request.result;
      for (const name of STORES) if (!db.objectStoreNames.contains(name)) db.createObjectStore(name);
    };
    request.onsuccess = () => {
      const db = request.result;
      if (settled) return db.close(); // too late: the page went on without it
      done(resolve, new WorkspaceDB(db));
    };
    request.onerror = (e) => {
      e.preventDefault();
      const err = storageError(request.error, "opening the browser's storage");
      // Firefox's private windows (before version 115) refuse IndexedDB with InvalidStateError.
      done(
        reject,
        err.kind === 'failed' && request.error && request.error.name === 'InvalidStateError'
          ? new StorageError('refused', err.message)
          : err,
      );
    };
  });
}

/**
 * deleteWorkspaceDB deletes the whole database (what "Forget my data" does when this page could
 * not open it, a newer version made it, and to the example's). It resolves once deleted.
 */
export function deleteWorkspaceDB({ idb = globalThis.indexedDB, name = DB_NAME } = {}) {
  return new Promise((resolve, reject) => {
    const request = idb.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(storageError(request.error, 'forgetting your work'));
  });
}

/** WorkspaceDB reads, writes and clears the stored workspace. */
export class WorkspaceDB {
  constructor(db) {
    this.db = db;
    this.closed = false;
    /** stored holds the ids of the arrays the last committed read or write left in `arrays`. */
    this.stored = new Set();
    /** prefetched is the read begun by prefetch, which the next read answers with. */
    this.prefetched = null;
    this.onclose = () => {};
    // Another tab opening a newer version of the database asks this one to let go.
    db.onversionchange = () => {
      db.close();
      this.closed = true;
      this.onclose('a newer version of this page was opened in another tab');
    };
    db.onclose = () => {
      this.closed = true;
      this.onclose('the browser closed the storage');
    };
  }

  /** transaction starts a transaction over both stores, or throws a StorageError. */
  transaction(mode, doing) {
    if (this.closed) throw new StorageError('closed', `${doing}: the database was closed`);
    try {
      return this.db.transaction(STORES, mode);
    } catch (err) {
      throw storageError(err, doing);
    }
  }

  /**
   * run runs body(tx) in a transaction and resolves to what body left in out once it commits;
   * it rejects with a StorageError when it aborts (a throw in a callback aborts it).
   */
  run(mode, doing, body) {
    return new Promise((resolve, reject) => {
      let tx;
      try {
        tx = this.transaction(mode, doing);
      } catch (err) {
        return reject(err);
      }
      let thrown = null;
      const out = {};
      /** guard runs a callback of the transaction; a throw aborts the whole transaction. */
      const guard =
        (fn) =>
        (...args) => {
          try {
            fn(...args);
          } catch (err) {
            thrown = err;
            try {
              tx.abort();
            } catch {
              /* already finished */
            }
          }
        };
      tx.oncomplete = () => resolve(out);
      tx.onabort = () => reject(storageError(thrown || tx.error || new Error('the transaction was aborted'), doing));
      guard(body)(tx, out, guard);
    });
  }

  /**
   * read resolves to {record, arrays}: the stored record (null when there is none) and the
   * arrays it refers to (refsOf(record) lists their ids), as Map id -> stored value.
   */
  read(refsOf) {
    if (this.prefetched) {
      const read = this.prefetched;
      this.prefetched = null;
      return read;
    }
    return this.run('readonly', "reading the browser's storage", (tx, out, guard) => {
      out.record = null;
      out.arrays = new Map();
      const get = tx.objectStore('workspace').get(RECORD_KEY);
      get.onsuccess = guard(() => {
        out.record = get.result === undefined ? null : get.result;
        if (out.record === null) return;
        const arrays = tx.objectStore('arrays');
        for (const id of refsOf(out.record)) {
          const one = arrays.get(id);
          one.onsuccess = guard(() => {
            if (one.result !== undefined) out.arrays.set(id, one.result);
          });
        }
      });
    }).then((out) => {
      this.stored = new Set(out.arrays.keys());
      return out;
    });
  }

  /**
   * prefetch begins a read now (boot.js: while the page's modules load), which the next read
   * answers with, its outcome as it was.
   */
  prefetch(refsOf) {
    this.prefetched = this.read(refsOf);
    this.prefetched.catch(() => {}); // the next read reports it
  }

  /**
   * write stores record and the arrays it refers to (Map id -> function giving the array) in
   * one transaction: only the arrays not stored yet are written, the ones nothing refers to any
   * more are deleted. It resolves once the transaction has committed.
   *
   * The record and the arrays are asked for at once, before any answer comes: a save begun as
   * the page goes away (pagehide) gets no more callbacks, and its transaction commits what was
   * asked by then, once told to commit (commitNow: Chromium dropped it otherwise, and with it
   * every change of the last 400 ms before a reload). Otherwise the stored keys are read after,
   * in the same transaction, to delete what nothing refers to and to write an array believed
   * stored that is not (another tab's save deleted it); a save committed at once leaves that to
   * the next.
   */
  write(record, arrays, { commitNow = false } = {}) {
    return this.run('readwrite', 'saving your work', (tx, _out, guard) => {
      const store = tx.objectStore('arrays');
      for (const [id, get] of arrays) if (!this.stored.has(id)) store.put(get(), id);
      tx.objectStore('workspace').put(record, RECORD_KEY);
      if (commitNow && typeof tx.commit === 'function') return tx.commit();
      const keys = store.getAllKeys();
      keys.onsuccess = guard(() => {
        const stored = new Set(keys.result);
        for (const [id, get] of arrays) if (!stored.has(id)) store.put(get(), id);
        for (const id of stored) if (!arrays.has(id)) store.delete(id);
      });
    }).then((out) => {
      this.stored = new Set(arrays.keys());
      return out;
    });
  }

  /** clear removes the stored work (both stores) in one transaction. */
  clear() {
    return this.run('readwrite', 'forgetting your work', (tx) => {
      for (const name of STORES) tx.objectStore(name).clear();
    }).then((out) => {
      this.stored = new Set();
      return out;
    });
  }
}
