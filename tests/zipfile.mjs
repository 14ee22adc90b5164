// Zip archives written in the real format (PKWARE's APPNOTE: a local header and the deflated
// data of each member, then the central directory and its end record), for the tests that hand
// the page or the CLI a zip of logs. lawcore/importer/internal/logwrite is the Go tests' writer.
import { crc32, deflateRawSync } from 'node:zlib';

/** u16 and u32 are little-endian fields. */
const u16 = (n) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};

/** DOS_DATE is 1980-01-01, the earliest a zip can say. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

/** zipFile is a zip archive's bytes holding files ({name: bytes or text}), each deflated. */
export function zipFile(files) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const data = Buffer.from(content);
    const packed = deflateRawSync(data);
    const nameBytes = Buffer.from(name);
    const crc = crc32(data);
    const common = [
      u16(20),
      u16(0),
      u16(8),
      u16(0),
      u16(DOS_DATE),
      u32(crc),
      u32(packed.length),
      u32(data.length),
      u16(nameBytes.length),
      u16(0),
    ];
    const local = Buffer.concat([u32(0x04034b50), ...common, nameBytes, packed]);
    centrals.push(
      Buffer.concat([u32(0x02014b50), u16(20), ...common, u16(0), u16(0), u16(0), u32(0), u32(offset), nameBytes]),
    );
    locals.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.concat([
    u32(0x06054b50),
    u16(0),
    u16(0),
    u16(centrals.length),
    u16(centrals.length),
    u32(directory.length),
    u32(offset),
    u16(0),
  ]);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}
