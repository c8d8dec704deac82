/**
 * Reads a PNG's signature and IHDR chunk (PNG spec §5.2–5.3, §11.2.2: the 8-byte signature, then the
 * IHDR chunk first, width and height as big-endian 32-bit integers at bytes 16 and 20), as the
 * platforms do to report an uploaded picture's size.
 */
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height of a valid PNG, or undefined when the bytes are not one. */
export function pngSize(data: Buffer | Uint8Array): { width: number; height: number } | undefined {
  const bytes = Buffer.from(data);
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(SIGNATURE)) return undefined;
  if (bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  return width > 0 && height > 0 ? { width, height } : undefined;
}
