/** Every generator a skill blueprint may name. Adding one = one module + one line here. */
import type { Generator } from '../generator';
import { additionGenerator } from './addition';
import { divisionGenerator } from './division';
import { ipv4BroadcastGenerator, ipv4NetworkGenerator } from './ipv4';
import { multiplicationGenerator } from './multiplication';
import { pythonLenGenerator } from './python-len';
import { pythonStringCountGenerator } from './python-string-count';
import { subtractionGenerator } from './subtraction';

export const generatorRegistry: ReadonlyMap<string, Generator> = new Map(
  [
    additionGenerator,
    subtractionGenerator,
    multiplicationGenerator,
    divisionGenerator,
    ipv4NetworkGenerator,
    ipv4BroadcastGenerator,
    pythonLenGenerator,
    pythonStringCountGenerator,
  ].map((generator) => [generator.name, generator]),
);
