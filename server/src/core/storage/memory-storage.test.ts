import { describeStorageContract } from '../../../test/storage-contract/storage-contract';
import { createMemoryStorage } from './memory-storage';

describeStorageContract('memory', () => createMemoryStorage());
