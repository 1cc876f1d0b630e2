import { Redis } from 'ioredis';

/** A Redis URL (the service's REDIS_URL), or an ioredis client the caller owns and closes. */
export type RedisConnection = string | Redis;

/** A client and whether closing it is our job. */
export interface OwnedClient {
  client: Redis;
  owned: boolean;
}

/**
 * The connection for ordinary commands (adding jobs). ioredis' default of 20 retries
 * per command is kept on purpose: while Redis is down an enqueue fails within
 * seconds, and the request that triggered it gets an error instead of hanging.
 */
export function commandClient(connection: RedisConnection): OwnedClient {
  if (typeof connection === 'string') return { client: new Redis(connection), owned: true };
  return { client: connection, owned: false };
}

/**
 * A client for BullMQ's blocking consumers (Worker, QueueEvents). BullMQ requires
 * `maxRetriesPerRequest: null` on them and throws when handed a client without it,
 * which a client shared with the rest of the service normally is; so a copy is made
 * with that setting. Always ours to close. Lazy, because BullMQ may only duplicate it.
 */
export function blockingClient(connection: RedisConnection): Redis {
  const options = { maxRetriesPerRequest: null, lazyConnect: true };
  if (typeof connection === 'string') return new Redis(connection, options);
  return connection.duplicate(options);
}

export async function closeClient(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  // QUIT lets pending replies arrive; a client that never connected has nothing to
  // flush, and QUIT would make it connect first.
  if (client.status === 'wait') {
    client.disconnect();
    return;
  }
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}
