/**
 * Property tests of the IPv4 skills. The network and broadcast addresses are recomputed
 * octet by octet with per-octet masks (the generator works on one 32-bit integer), and the
 * case from the address class table.
 */
import { describeSkillProperties } from '../../../../test/support/assessment-support';
import type { GeneratedItem } from '../item-builder';

function octetMasks(prefix: number): number[] {
  return [0, 1, 2, 3].map((octet) => {
    const networkBits = Math.min(8, Math.max(0, prefix - 8 * octet));
    return 256 - 2 ** (8 - networkBits);
  });
}

function recompute(item: GeneratedItem) {
  const ip = String(item.params['ip']);
  const prefix = Number(item.params['prefix']);
  const octets = ip.split('.').map(Number);
  const masks = octetMasks(prefix);
  const network = octets.map((octet, index) => octet & (masks[index] ?? 0));
  const broadcast = octets.map((octet, index) => octet | (255 - (masks[index] ?? 0)));
  const first = octets[0] ?? 0;
  const classful = first <= 126 ? 8 : first <= 191 ? 16 : 24;
  const expectedCase = prefix === classful ? 'classful' : prefix % 8 === 0 ? 'byte_boundary' : 'non_byte_boundary';
  const problems: string[] = [];
  if (octets.length !== 4 || octets.some((octet) => !Number.isInteger(octet) || octet < 0 || octet > 255)) problems.push('malformed address');
  if (first === 0 || first === 127 || first >= 224) problems.push('first octet outside classes A–C');
  if (prefix < classful || prefix > 30) problems.push(`prefix /${prefix} outside /${classful}–/30 (subnets of the class only)`);
  if (network.join('.') === ip || broadcast.join('.') === ip) problems.push('address is not a host address');
  if (item.params['case'] !== expectedCase) problems.push(`expected ${expectedCase}`);
  if (!item.stem.includes(`${ip}/${prefix}`) && !item.stem.includes(`${ip} and the subnet mask ${masks.join('.')}`)) {
    problems.push('stem shows neither the prefix nor the right mask');
  }
  return { network: network.join('.'), broadcast: broadcast.join('.'), problems };
}

const cases = ['classful', 'byte_boundary', 'non_byte_boundary'];

describeSkillProperties('NET.IPV4.SUBNET.NETWORK', {
  caseOrder: cases,
  check(item) {
    const { network, broadcast, problems } = recompute(item);
    if (item.correctAnswer !== network) problems.push(`answer ${item.correctAnswer}, bit-masked ${network}`);
    // The broadcast address is always a distractor here: it is the first strategy listed.
    if (!(item.options ?? []).includes(broadcast)) problems.push('broadcast distractor missing');
    return problems;
  },
});

describeSkillProperties('NET.IPV4.SUBNET.BROADCAST', {
  caseOrder: cases,
  check(item) {
    const { network, broadcast, problems } = recompute(item);
    if (item.correctAnswer !== broadcast) problems.push(`answer ${item.correctAnswer}, bit-masked ${broadcast}`);
    if (!(item.options ?? []).includes(network)) problems.push('network distractor missing');
    return problems;
  },
});
