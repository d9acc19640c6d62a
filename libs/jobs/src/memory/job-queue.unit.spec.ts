import { jobQueueDueContract } from '../job-queue-due.contract.js';
import { jobQueueContract } from '../job-queue.contract.js';
import { MemoryJobQueue } from './job-queue.js';

jobQueueContract('memory', async (clock) => new MemoryJobQueue(clock));
jobQueueDueContract('memory', async (clock) => new MemoryJobQueue(clock));
