import pg from 'pg';
import { testPool } from '../testing';
import { createTestDatabase, type TestDatabase } from '../testing/test-database';
import { runIfUnlocked } from './run-if-unlocked';

describe('runIfUnlocked on Postgres', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  let other: pg.Client;
  const database = () => ({ kind: 'postgres' as const, pool });

  beforeAll(async () => {
    db = await createTestDatabase('sk_lock');
    pool = testPool(db.url, 4);
    other = new pg.Client({ connectionString: db.url });
    await other.connect();
  });

  afterAll(async () => {
    await other?.end();
    await pool?.end();
    await db?.drop();
  });

  it('runs the work and answers its value when nobody holds the lock', async () => {
    await expect(runIfUnlocked(database(), 'task:a', async () => 42)).resolves.toEqual({ ran: true, value: 42 });
  });

  it('skips while another run holds the lock (from this process or another connection), and runs once it is released', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const first = runIfUnlocked(database(), 'task:b', async () => {
      entered();
      await held;
      return 'first';
    });
    await inside;
    const skipped = jest.fn(async () => 'second');
    await expect(runIfUnlocked(database(), 'task:b', skipped)).resolves.toEqual({ ran: false });
    expect(skipped).not.toHaveBeenCalled();
    // Another name is another lock.
    await expect(runIfUnlocked(database(), 'task:c', async () => 'c')).resolves.toEqual({ ran: true, value: 'c' });
    release();
    await expect(first).resolves.toEqual({ ran: true, value: 'first' });

    // Held by another session, as another instance would.
    await other.query('select pg_advisory_lock(hashtext($1))', ['task:b']);
    await expect(runIfUnlocked(database(), 'task:b', skipped)).resolves.toEqual({ ran: false });
    await other.query('select pg_advisory_unlock(hashtext($1))', ['task:b']);
    await expect(runIfUnlocked(database(), 'task:b', skipped)).resolves.toEqual({ ran: true, value: 'second' });
  });

  it('releases the lock when the work throws, and returns the connection to the pool', async () => {
    await expect(runIfUnlocked(database(), 'task:d', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const { rows } = await other.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtext($1)) as locked', ['task:d']);
    expect(rows[0]!.locked).toBe(true);
    await other.query('select pg_advisory_unlock(hashtext($1))', ['task:d']);
    expect(pool.idleCount).toBe(pool.totalCount);
  });

  it('on embedded PGlite (one process, one connection) runs the work without touching the pool', async () => {
    const connect = jest.fn();
    const pglite = { kind: 'pglite' as const, pool: { connect } as unknown as pg.Pool };
    await expect(runIfUnlocked(pglite, 'task:e', async () => 'ok')).resolves.toEqual({ ran: true, value: 'ok' });
    expect(connect).not.toHaveBeenCalled();
  });

  it('on embedded PGlite skips a second run of the same name while the first runs, and runs again once it settles', async () => {
    const pglite = { kind: 'pglite' as const, pool: { connect: jest.fn() } as unknown as pg.Pool };
    let finish!: () => void;
    const first = runIfUnlocked(pglite, 'task:f', () => new Promise<string>((resolve) => (finish = () => resolve('first'))));
    await expect(runIfUnlocked(pglite, 'task:f', async () => 'second')).resolves.toEqual({ ran: false });
    await expect(runIfUnlocked(pglite, 'task:g', async () => 'other name')).resolves.toEqual({ ran: true, value: 'other name' });
    finish();
    await expect(first).resolves.toEqual({ ran: true, value: 'first' });
    await expect(runIfUnlocked(pglite, 'task:f', async () => 'again')).resolves.toEqual({ ran: true, value: 'again' });
  });
});
