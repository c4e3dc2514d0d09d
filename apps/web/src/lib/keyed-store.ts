/**
 * Records kept by their `id` in one IndexedDB object store (of a database of its own). Each
 * call resolves once its transaction has committed, so a write is durable when it says so:
 * what is kept here outlives a closed tab, a crash or a lost connection.
 */
export class KeyedStore<T extends { id: string }> {
  private db: Promise<IDBDatabase> | null = null;

  constructor(
    private readonly database: string,
    private readonly store: string,
    /** By default the page's own; read when first opened, so nothing needs it before. */
    private readonly factory?: IDBFactory,
  ) {}

  async put(record: T): Promise<void> {
    await this.run('readwrite', (store) => store.put(record));
  }

  async delete(id: string): Promise<void> {
    await this.run('readwrite', (store) => store.delete(id));
  }

  all(): Promise<T[]> {
    return this.run<T[]>('readonly', (store) => store.getAll());
  }

  /**
   * Reads a record and keeps what `change` makes of it (undefined: the record goes), in one
   * transaction, so no other change comes between the reading and the writing. Resolves with
   * what is kept.
   */
  update(id: string, change: (current: T | undefined) => T | undefined): Promise<T | undefined> {
    return this.transaction('readwrite', (store, done) => {
      const read = store.get(id);
      read.onsuccess = () => {
        const next = change(read.result as T | undefined);
        if (next === undefined) store.delete(id);
        else store.put(next);
        done(next);
      };
    });
  }

  private run<R>(mode: IDBTransactionMode, action: (store: IDBObjectStore) => IDBRequest): Promise<R> {
    return this.transaction(mode, (store, done) => {
      const request = action(store);
      request.onsuccess = () => done(request.result as R);
    });
  }

  /** Runs `work` in a transaction and resolves with what it handed `done`, once committed. */
  private async transaction<R>(
    mode: IDBTransactionMode,
    work: (store: IDBObjectStore, done: (value: R) => void) => void,
  ): Promise<R> {
    const db = await this.open();
    return new Promise<R>((resolve, reject) => {
      const transaction = db.transaction(this.store, mode);
      let value: R | undefined;
      work(transaction.objectStore(this.store), (result) => {
        value = result;
      });
      transaction.oncomplete = () => resolve(value as R);
      transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
      transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
    });
  }

  private open(): Promise<IDBDatabase> {
    this.db ??= new Promise((resolve, reject) => {
      const request = (this.factory ?? indexedDB).open(this.database, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(this.store, { keyPath: 'id' });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB is not available'));
    });
    return this.db;
  }
}
