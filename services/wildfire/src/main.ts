// Entry point of `npm start`: the API and the job worker in one process.
import { runProcess } from './process-main';

runProcess('all').catch((err: unknown) => {
  console.error('wildfire failed to start:', err);
  process.exit(1);
});
