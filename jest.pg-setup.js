'use strict';
/**
 * Each test file drops its own database with `DROP DATABASE … WITH (FORCE)`
 * (service-kit/testing). Postgres ends every session still connected to it with 57P01
 * ("terminating connection due to administrator command"); a pg client or pool that
 * nobody listens to then emits an unhandled 'error', which jest pins on whatever test
 * runs in that worker next, often another file's. Only that one error, on an emitter
 * with no 'error' listener, is dropped here; every other error stays as loud as before.
 */
const pg = require('pg');

for (const Emitter of [pg.Client, pg.Pool]) {
  const emit = Emitter.prototype.emit;
  Emitter.prototype.emit = function emitUnlessDropped(name, err, ...rest) {
    if (name === 'error' && err && err.code === '57P01' && this.listenerCount('error') === 0) return false;
    return emit.call(this, name, err, ...rest);
  };
}
