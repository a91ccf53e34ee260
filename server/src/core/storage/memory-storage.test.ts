import { describeStorageContract } from '../../../test/storage-contract/storage-contract';
import { createMemoryStorage } from './memory-storage';
import { sessionTypeCatalog } from '../session-type-states';

describeStorageContract('memory', () => createMemoryStorage(sessionTypeCatalog));
