/** CRC-32 (IEEE 802.3, as zip stores it), computed piece by piece while an entry streams out. */
const table = (() => {
  const entries = new Int32Array(256);
  for (let byte = 0; byte < 256; byte += 1) {
    let value = byte;
    for (let bit = 0; bit < 8; bit += 1) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
    entries[byte] = value;
  }
  return entries;
})();

/** The CRC-32 of `previous`'s data followed by `data` (start with 0). */
export function crc32(data: Uint8Array, previous = 0): number {
  let value = ~previous;
  for (let index = 0; index < data.length; index += 1) value = table[(value ^ data[index]!) & 0xff]! ^ (value >>> 8);
  return ~value >>> 0;
}
