/**
 * IPv4 subnetting from an address and a CIDR prefix: the network address, or the broadcast
 * address. Cases: the prefix is the address's classful one (/8 for class A, /16 for B, /24
 * for C), another byte boundary, or not on a byte boundary (the hard one: a partial octet
 * must be masked bit by bit). Addresses are 32-bit unsigned integers internally.
 */
import { z } from 'zod';
import { defineChoiceGenerator, drawUntil, GenerationError } from '../generator';
import type { Random } from '../random';
import { pickOne, randomInt } from '../random';

const cases = ['classful', 'byte_boundary', 'non_byte_boundary'] as const;
type Ipv4Case = (typeof cases)[number];
type AddressClass = 'A' | 'B' | 'C';

const firstOctets: Record<AddressClass, { min: number; max: number }> = {
  A: { min: 1, max: 126 }, // 0 and 127 (loopback) are not host networks
  B: { min: 128, max: 191 },
  C: { min: 192, max: 223 },
};
const classfulPrefix: Record<AddressClass, number> = { A: 8, B: 16, C: 24 };

const Ipv4Constraints = z
  .strictObject({
    classes: z.array(z.enum(['A', 'B', 'C'])).min(1).default(['A', 'B', 'C']),
    // Subnetting proper: prefixes no shorter than the address's classful one (no /12 on a class C address).
    subnetsOnly: z.boolean().default(true),
    // /31 and /32 have no network/broadcast pair, so prefixes stop at /30.
    prefixRange: z
      .strictObject({ min: z.number().int().min(1).max(30), max: z.number().int().min(1).max(30) })
      .refine((range) => range.min <= range.max, { message: 'min must not exceed max' })
      .default({ min: 8, max: 30 }),
  })
  .default({ classes: ['A', 'B', 'C'], subnetsOnly: true, prefixRange: { min: 8, max: 30 } });
type Ipv4Constraints = z.infer<typeof Ipv4Constraints>;

interface Ipv4Params extends Record<string, unknown> {
  ip: string;
  prefix: number;
  addressClass: AddressClass;
}

export function maskOf(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}
export function toDotted(address: number): string {
  return [24, 16, 8, 0].map((shift) => (address >>> shift) & 0xff).join('.');
}
export function fromDotted(dotted: string): number {
  return dotted.split('.').reduce((address, octet) => ((address << 8) | Number(octet)) >>> 0, 0);
}
export const networkOf = (address: number, prefix: number): number => (address & maskOf(prefix)) >>> 0;
export const broadcastOf = (address: number, prefix: number): number => (address | ~maskOf(prefix)) >>> 0;

export function classOf(address: number): AddressClass {
  const first = address >>> 24;
  if (first < 128) return 'A';
  return first < 192 ? 'B' : 'C';
}

function prefixesFor(caseName: Ipv4Case, addressClass: AddressClass, constraints: Ipv4Constraints): number[] {
  if (caseName === 'classful') return [classfulPrefix[addressClass]];
  const shortest = constraints.subnetsOnly ? Math.max(constraints.prefixRange.min, classfulPrefix[addressClass]) : constraints.prefixRange.min;
  const inRange: number[] = [];
  for (let prefix = shortest; prefix <= constraints.prefixRange.max; prefix++) inRange.push(prefix);
  if (caseName === 'byte_boundary') return inRange.filter((prefix) => prefix % 8 === 0 && prefix !== classfulPrefix[addressClass]);
  return inRange.filter((prefix) => prefix % 8 !== 0);
}

function generateIpv4(constraints: Ipv4Constraints, caseName: Ipv4Case, random: Random): Ipv4Params {
  const usable = constraints.classes.filter((addressClass) => prefixesFor(caseName, addressClass, constraints).length > 0);
  if (usable.length === 0) throw new GenerationError(`no prefix fits case ${caseName} within the constraints`);
  const addressClass = pickOne(random, usable);
  const prefix = pickOne(random, prefixesFor(caseName, addressClass, constraints));
  const range = firstOctets[addressClass];
  const address = drawUntil(
    () => ((randomInt(random, range.min, range.max) << 24) | randomInt(random, 0, 0xffffff)) >>> 0,
    // A host address proper: neither the network nor the broadcast address itself.
    (candidate) => candidate !== networkOf(candidate, prefix) && candidate !== broadcastOf(candidate, prefix),
    `IPv4 ${caseName}`,
  );
  return { ip: toDotted(address), prefix, addressClass };
}

/** Mask errors shared by both questions: `apply` computes the asked address for a prefix. */
function maskErrors(apply: (address: number, prefix: number) => number) {
  return {
    // Off by one bit of prefix: /19 read as /20 or /18.
    neighbour_prefix: ({ ip, prefix }: Ipv4Params) => [prefix - 1, prefix + 1].map((other) => toDotted(apply(fromDotted(ip), other))),
    // The class's default mask applied instead of the given prefix.
    classful_mask: ({ ip, addressClass }: Ipv4Params) => [toDotted(apply(fromDotted(ip), classfulPrefix[addressClass]))],
    // The partial octet treated as all-network or all-host: /20 computed as /16 or /24.
    byte_rounded_mask: ({ ip, prefix }: Ipv4Params) =>
      [Math.floor(prefix / 8) * 8, Math.ceil(prefix / 8) * 8].map((other) => toDotted(apply(fromDotted(ip), other))),
    // The address itself, unmasked.
    input_address: ({ ip }: Ipv4Params) => [ip],
  };
}

function describeIpv4({ ip, prefix }: Ipv4Params, answer: number) {
  return {
    // A partial octet before the last also zeroes (or fills) every octet after it.
    features: { mid_octet_boundary: prefix % 8 !== 0 && prefix < 24 ? 1 : 0 },
    placeholders: { ip, prefix: String(prefix), mask: toDotted(maskOf(prefix)) },
    contentKey: `${ip}/${prefix}`,
    answer: toDotted(answer),
  };
}

const shared = {
  cases,
  features: ['mid_octet_boundary'],
  placeholders: ['ip', 'prefix', 'mask'],
  constraints: Ipv4Constraints,
  generate: generateIpv4,
} as const;

export const ipv4NetworkGenerator = defineChoiceGenerator({
  ...shared,
  name: 'ipv4-network-address',
  describe: (params: Ipv4Params) => describeIpv4(params, networkOf(fromDotted(params.ip), params.prefix)),
  distractors: {
    broadcast_address: ({ ip, prefix }: Ipv4Params) => [toDotted(broadcastOf(fromDotted(ip), prefix))],
    first_host: ({ ip, prefix }: Ipv4Params) => [toDotted(networkOf(fromDotted(ip), prefix) + 1)],
    ...maskErrors(networkOf),
  },
});

export const ipv4BroadcastGenerator = defineChoiceGenerator({
  ...shared,
  name: 'ipv4-broadcast-address',
  describe: (params: Ipv4Params) => describeIpv4(params, broadcastOf(fromDotted(params.ip), params.prefix)),
  distractors: {
    network_address: ({ ip, prefix }: Ipv4Params) => [toDotted(networkOf(fromDotted(ip), prefix))],
    last_host: ({ ip, prefix }: Ipv4Params) => [toDotted(broadcastOf(fromDotted(ip), prefix) - 1)],
    // One past the block: the next subnet's network address taken for this one's broadcast.
    // Host addresses stay below 224.0.0.0, so the sum never leaves the 32-bit range.
    next_network: ({ ip, prefix }: Ipv4Params) => [toDotted(broadcastOf(fromDotted(ip), prefix) + 1)],
    ...maskErrors(broadcastOf),
  },
});
