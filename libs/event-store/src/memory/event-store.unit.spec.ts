import { eventStoreReadContract } from '../event-store-reads.contract.js';
import { eventStoreContract } from '../event-store.contract.js';
import { MemoryEventStore, MemoryLog } from './event-store.js';

// Every store opened on one log sees what the others wrote, as connections to one database do.
const log = new MemoryLog();
eventStoreContract('memory', async () => new MemoryEventStore({ log }));
eventStoreReadContract('memory', async () => new MemoryEventStore({ log }));
