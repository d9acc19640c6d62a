import { runProcess } from '#config/run-process.js';
import { startService } from './service.js';

/** `npm start`: API, worker duties and dashboard in one process (embedded defaults unless configured otherwise). */
runProcess('Service', (config) => startService(config));
