// Entry point: wildfire worker process (BullMQ jobs; needs REDIS_URL).
import { runProcess } from './process-main';

runProcess('worker').catch((err: unknown) => {
  console.error('wildfire worker failed to start:', err);
  process.exit(1);
});
