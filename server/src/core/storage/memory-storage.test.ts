import { describeStorageContract } from './storage.contract';
import { createMemoryStorage } from './memory-storage';

describeStorageContract('memory', () => createMemoryStorage());
