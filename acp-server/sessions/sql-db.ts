// A sql.js database with its prepared statements cached by SQL text (preparing is a large
// share of a small query's cost in sql.js) and a re-entrant transaction helper.
import type { Database, SqlValue, Statement } from "sql.js";

export class SqlDb {
  private readonly statements = new Map<string, Statement>();
  private inTransaction = false;

  constructor(readonly db: Database) {}

  all(sql: string, params: SqlValue[] = []): SqlValue[][] {
    const statement = this.prepare(sql);
    try {
      statement.bind(params);
      const rows: SqlValue[][] = [];
      while (statement.step()) rows.push(statement.get());
      return rows;
    } finally {
      statement.reset();
    }
  }

  one(sql: string, params: SqlValue[] = []): SqlValue[] | undefined {
    const statement = this.prepare(sql);
    try {
      statement.bind(params);
      return statement.step() ? statement.get() : undefined;
    } finally {
      statement.reset();
    }
  }

  run(sql: string, params: SqlValue[] = []): void {
    this.prepare(sql).run(params);
  }

  /** Runs `fn` in one transaction, or in the current one when already inside one. */
  transaction<T>(fn: () => T): T {
    if (this.inTransaction) return fn();
    this.db.exec("BEGIN");
    this.inTransaction = true;
    try {
      const result = fn();
      this.db.exec("COMMIT");
      return result;
    } catch (error) {
      this.db.exec("ROLLBACK");
      throw error;
    } finally {
      this.inTransaction = false;
    }
  }

  close(): void {
    for (const statement of this.statements.values()) statement.free();
    this.statements.clear();
    this.db.close();
  }

  private prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
