// Entry point: wildfire api process (HTTP; runs jobs in-process when REDIS_URL is unset).
import { runProcess } from './process-main';

runProcess('api').catch((err: unknown) => {
  console.error('wildfire api failed to start:', err);
  process.exit(1);
});
