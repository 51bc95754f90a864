import { messages as pgMessages, parse as pgParse, protocol, types, type messages, type PGlite, type QueryOptions, type Results, type Transaction } from "@electric-sql/pglite";

/**
 * The embedded database's client for Drizzle, with named prepared statements (decision 035).
 *
 * PGlite's own `query` sends every call as six messages, each a separate trip into the WebAssembly
 * PostgreSQL (Parse, Describe, Bind, Describe, Execute, Sync), on an unnamed statement: every call is
 * parsed, analysed and planned again, and planning opens each table's files to learn their size. The
 * queries of this app are a few hundred fixed texts with parameters, so each text is parsed once into a
 * named statement (its parameter types and row description remembered), and every later call is one
 * trip: Bind, Execute, Sync. PostgreSQL's plan cache then decides between a custom and a generic plan as
 * it does for any prepared statement, and replans after DDL or ANALYZE.
 *
 * Only SELECT, INSERT, UPDATE, DELETE and WITH texts are kept, at most `maxStatements` (the least recently
 * used is closed). Anything else (DDL, BEGIN, SET), a COPY with a blob and a statement PostgreSQL reports as
 * stale go through PGlite's `query` unchanged. Rows are built with PGlite's parsers and serializers as its own
 * `parseResults` builds them; a failure throws PGlite's `DatabaseError` with the query attached.
 *
 * A prepared call's answer is taken as raw bytes (`execProtocolRawStream`) and read by `readAnswer`:
 * PGlite's protocol parser copies every value into an ArrayBuffer of its own through private-field
 * lookups, which made up three quarters of a 25-row call's CPU (0.41 ms against 0.12). An answer with
 * anything besides rows and a command tag (an error, a notice) is read by PGlite's parser, as before.
 * Notifications are not delivered through this client: LISTEN is not used on the embedded database
 * (its live events stay in the process).
 */

interface Prepared {
  name: string;
  paramTypes: number[];
  /** The statement's result columns (none for a statement that returns no rows). */
  fields: Array<{ name: string; dataTypeID: number }>;
}

type Exclusive = <T>(fn: () => Promise<T>) => Promise<T>;
interface PgliteInternals {
  _runExclusiveQuery: Exclusive;
  _runExclusiveTransaction: Exclusive;
}

/** Statement names are unique in the process: two clients over one PGlite share its session. */
let sequence = 0;

const CACHEABLE = /^\s*(select|insert|update|delete|with)\b/i;
/** SQLSTATEs of a statement that no longer fits: the cached plan's result type changed, it was dropped. */
const STALE = new Set(["0A000", "26000"]);

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function sqlState(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/** Adds what PGlite's own `query` adds to a database error (the query, its parameters and options). */
function withQuery(error: unknown, query: string, params: unknown[], options?: QueryOptions): unknown {
  if (error && typeof error === "object" && "code" in error) {
    Object.assign(error, { query, params, queryOptions: options });
  }
  return error;
}

/** A statement's answer as sent: each row's values as text (null for NULL), and the command tag. */
interface Answer {
  rows: (string | null)[][];
  tag: string | null;
}

const utf8 = new TextDecoder();
const DATA_ROW = 0x44; // D
const COMMAND_COMPLETE = 0x43; // C
/** Messages that carry nothing a result needs: BindComplete, CloseComplete, NoData, PortalSuspended, EmptyQueryResponse, ReadyForQuery. */
const PASSED_OVER = new Set([0x32, 0x33, 0x6e, 0x73, 0x49, 0x5a]);

/**
 * Reads the answer to Bind, Execute and Sync straight from the wire bytes: the data rows (each value
 * decoded from a view of the answer) and the command tag. Null when the answer holds any other message
 * (an error, a notice): PGlite's parser reads it then.
 */
export function readAnswer(data: Uint8Array): Answer | null {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const rows: (string | null)[][] = [];
  let tag: string | null = null;
  let offset = 0;
  while (offset + 5 <= data.length) {
    const code = data[offset];
    const end = offset + 1 + view.getUint32(offset + 1);
    if (end > data.length) return null;
    if (code === DATA_ROW) {
      const count = view.getInt16(offset + 5);
      const values: (string | null)[] = new Array(count);
      let at = offset + 7;
      for (let i = 0; i < count; i++) {
        const length = view.getInt32(at);
        at += 4;
        if (length < 0) {
          values[i] = null;
        } else {
          values[i] = utf8.decode(data.subarray(at, at + length));
          at += length;
        }
      }
      rows.push(values);
    } else if (code === COMMAND_COMPLETE) {
      tag = utf8.decode(data.subarray(offset + 5, end - 1));
    } else if (!PASSED_OVER.has(code)) {
      return null;
    }
    offset = end;
  }
  return offset === data.length ? { rows, tag } : null;
}

/**
 * An answer read by PGlite's own parser (one with an error or a notice): its rows and command tag; throws
 * the first database error, as PGlite does.
 */
function parseAnswer(data: Uint8Array): Answer {
  const answer: Answer = { rows: [], tag: null };
  new protocol.Parser().parse(data, (message) => {
    if (message instanceof pgMessages.DatabaseError) throw message;
    if (message.name === "dataRow") answer.rows.push((message as messages.DataRowMessage).fields);
    else if (message.name === "commandComplete") answer.tag = (message as messages.CommandCompleteMessage).text;
  });
  return answer;
}

/** The result PGlite builds from rows and a command tag: "SELECT 2", "UPDATE 3", "INSERT 0 5" (the last word counts rows). */
function commandResult<T>(rows: unknown[], fields: Prepared["fields"], tag: string | null): Results<T> {
  if (tag === null) return { rows: rows as T[], fields, affectedRows: 0 };
  const words = tag.split(" ");
  const command = words[0];
  const count = Number.parseInt(words[words.length - 1], 10);
  const writes = command === "INSERT" || command === "UPDATE" || command === "DELETE" || command === "MERGE" || command === "COPY";
  const result = { rows: rows as T[], fields, command, affectedRows: writes ? count : 0 } as Results<T>;
  if (!Number.isNaN(count)) (result as { rowCount?: number }).rowCount = count;
  return result;
}

export class PgliteStatements {
  readonly pglite: PGlite;
  readonly maxStatements: number;
  readonly #statements = new Map<string, Prepared>();
  /** Close messages of evicted statements, sent with the next trip. */
  #pendingCloses: Uint8Array[] = [];

  constructor(pglite: PGlite, maxStatements = 256) {
    this.pglite = pglite;
    this.maxStatements = maxStatements;
  }

  /** How many statements are prepared now (tests, benchmarks). */
  get size(): number {
    return this.#statements.size;
  }

  get #internals(): PgliteInternals {
    return this.pglite as unknown as PgliteInternals;
  }

  async query<T>(query: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    if (!this.prepares(query, options)) return this.pglite.query<T>(query, params, options);
    const result = await this.#internals._runExclusiveTransaction(() => this.#runExclusive<T>(query, params, options, true));
    await this.pglite.syncToFs();
    return result;
  }

  exec(query: string, options?: QueryOptions): Promise<Results[]> {
    return this.pglite.exec(query, options);
  }

  transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.pglite.transaction((tx) =>
      callback({
        ...tx,
        query: <R>(query: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<R>> => {
          if (tx.closed || !this.prepares(query, options)) return tx.query<R>(query, params, options);
          return this.#runExclusive<R>(query, params, options, false);
        },
        get closed() {
          return tx.closed;
        },
      }),
    );
  }

  /** Whether `query` runs as a named statement here (otherwise through PGlite's own `query`). */
  prepares(query: string, options?: QueryOptions): boolean {
    return !options?.blob && !options?.paramTypes && CACHEABLE.test(query);
  }

  /** Runs under PGlite's query lock; outside a transaction a stale statement is prepared again once. */
  #runExclusive<T>(query: string, params: unknown[], options: QueryOptions | undefined, canRetry: boolean): Promise<Results<T>> {
    return this.#internals._runExclusiveQuery(async () => {
      try {
        return await this.#run<T>(query, params, options);
      } catch (error) {
        if (!STALE.has(sqlState(error) ?? "") || !this.#statements.has(query)) throw withQuery(error, query, params, options);
        this.#forget(query);
        if (!canRetry) throw withQuery(error, query, params, options);
        try {
          return await this.#run<T>(query, params, options);
        } catch (again) {
          throw withQuery(again, query, params, options);
        }
      }
    });
  }

  async #run<T>(query: string, params: unknown[], options?: QueryOptions): Promise<Results<T>> {
    const prepared = this.#statements.get(query) ?? (await this.#prepare(query));
    // least recently used last out: a hit moves to the end of the map's order
    this.#statements.delete(query);
    this.#statements.set(query, prepared);
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const oid = prepared.paramTypes[i];
      const serialize = options?.serializers?.[oid] ?? this.pglite.serializers[oid];
      return serialize ? serialize(param) : String(param);
    });
    const chunks: Uint8Array[] = [];
    await this.pglite.execProtocolRawStream(
      this.#message([
        protocol.serialize.bind({ statement: prepared.name, values: values as string[] }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
      { syncToFs: false, onRawData: (bytes) => chunks.push(bytes.slice()) },
    );
    const data = chunks.length === 1 ? chunks[0] : concat(chunks);
    // An error, a notice or anything else unusual: PGlite's own parser reads the answer (its error is thrown).
    return this.#rows<T>(prepared, readAnswer(data) ?? parseAnswer(data), options);
  }

  /**
   * The result of a statement from its rows as text and its command tag, as PGlite's `parseResults` builds
   * it, but with each field's parser looked up once per call (PGlite's copies its whole parser table into
   * the call's options).
   */
  #rows<T>(prepared: Prepared, answer: Answer, options?: QueryOptions): Results<T> {
    const fields = prepared.fields;
    const parsers = fields.map(({ dataTypeID }) => options?.parsers?.[dataTypeID] ?? this.pglite.parsers[dataTypeID] ?? types.parsers[dataTypeID]);
    const arrays = options?.rowMode === "array";
    const rows: unknown[] = new Array(answer.rows.length);
    for (let r = 0; r < answer.rows.length; r++) {
      const values = answer.rows[r];
      if (arrays) {
        const row: unknown[] = new Array(values.length);
        for (let i = 0; i < values.length; i++) {
          const value = values[i];
          row[i] = value === null ? null : parsers[i] ? parsers[i](value, fields[i].dataTypeID) : value;
        }
        rows[r] = row;
      } else {
        const row: Record<string, unknown> = {};
        for (let i = 0; i < values.length; i++) {
          const value = values[i];
          row[fields[i].name] = value === null ? null : parsers[i] ? parsers[i](value, fields[i].dataTypeID) : value;
        }
        rows[r] = row;
      }
    }
    return commandResult<T>(rows, fields, answer.tag);
  }

  async #prepare(query: string): Promise<Prepared> {
    const name = `caretaker_${++sequence}`;
    const messages = await this.#trip([
      protocol.serialize.parse({ name, text: query }),
      protocol.serialize.describe({ type: "S", name }),
      protocol.serialize.sync(),
    ]);
    const prepared: Prepared = {
      name,
      paramTypes: pgParse.parseDescribeStatementResults(messages),
      fields: ((messages.find((message) => message.name === "rowDescription") as messages.RowDescriptionMessage | undefined)?.fields ?? []).map(
        ({ name, dataTypeID }) => ({ name, dataTypeID }),
      ),
    };
    this.#statements.set(query, prepared);
    while (this.#statements.size > this.maxStatements) {
      const oldest = this.#statements.keys().next().value as string;
      this.#forget(oldest);
    }
    return prepared;
  }

  #forget(query: string): void {
    const prepared = this.#statements.get(query);
    if (!prepared) return;
    this.#statements.delete(query);
    this.#pendingCloses.push(protocol.serialize.close({ type: "S", name: prepared.name }));
  }

  /** One trip into PostgreSQL, its answer parsed by PGlite; throws PGlite's DatabaseError. */
  #trip(parts: Uint8Array[]): Promise<messages.BackendMessage[]> {
    return this.pglite.execProtocolStream(this.#message(parts), { syncToFs: false });
  }

  /** What one trip sends: the pending closes of evicted statements, then `parts`. */
  #message(parts: Uint8Array[]): Uint8Array {
    const closes = this.#pendingCloses;
    this.#pendingCloses = [];
    return concat([...closes, ...parts]);
  }
}
