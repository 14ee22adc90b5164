// TensorBoard event files written in the real format, for the tests (the node CLI's and the
// browser's): TFRecord framing (uint64 length, masked CRC-32C of it, data, masked CRC-32C of
// the data) around Event protobufs whose summaries hold scalars as simple_value, as PyTorch's
// SummaryWriter and tensorboardX write them. lawcore/importer/internal/logwrite is the Go
// tests' writer of the same format.

/** CRC32C_TABLE is the table of CRC-32C (Castagnoli, reflected polynomial 0x82f63b78). */
const CRC32C_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[i] = c >>> 0;
  }
  return t;
})();

/** crc32c is the CRC-32C of bytes. */
export function crc32c(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC32C_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** maskedCRC is TFRecord's masked checksum of bytes. */
function maskedCRC(bytes) {
  const crc = crc32c(bytes);
  return (((crc >>> 15) | (crc << 17)) + 0xa282ead8) >>> 0;
}

/** tfRecord frames data: uint64 LE length, masked CRC of the length, data, masked CRC of the data. */
function tfRecord(data) {
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(data.length));
  const lenCRC = Buffer.alloc(4);
  lenCRC.writeUInt32LE(maskedCRC(len));
  const dataCRC = Buffer.alloc(4);
  dataCRC.writeUInt32LE(maskedCRC(data));
  return Buffer.concat([len, lenCRC, data, dataCRC]);
}

/** varint is a protobuf varint. */
function varint(n) {
  const out = [];
  let v = BigInt(n);
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Buffer.from(out);
}

/** field is a protobuf field: its key (number, wire type) and payload. */
const field = (num, wire, payload) => Buffer.concat([varint((num << 3) | wire), payload]);
/** bytesField is a length-delimited field. */
const bytesField = (num, bytes) => field(num, 2, Buffer.concat([varint(bytes.length), bytes]));

/** scalarEvent is an Event {wall_time = 1, step = 2, summary = 5 {value = 1 {tag = 1, simple_value = 2}}}. */
function scalarEvent(step, values) {
  const wall = Buffer.alloc(8);
  wall.writeDoubleLE(1.7e9 + step);
  const summary = Buffer.concat(
    Object.entries(values).map(([tag, v]) => {
      const f = Buffer.alloc(4);
      f.writeFloatLE(v);
      return bytesField(1, Buffer.concat([bytesField(1, Buffer.from(tag)), field(2, 5, f)]));
    }),
  );
  return Buffer.concat([field(1, 1, wall), field(2, 0, varint(step)), bytesField(5, summary)]);
}

/**
 * eventFile is an event file's bytes: the file_version event, then one event per step with the
 * scalars of each tag ({tag: values}, null where a tag is not logged at that step).
 */
export function eventFile(steps, tags) {
  const version = Buffer.concat([field(1, 1, Buffer.alloc(8)), bytesField(3, Buffer.from('brain.Event:2'))]);
  const records = [tfRecord(version)];
  steps.forEach((step, i) => {
    const values = {};
    for (const [tag, vs] of Object.entries(tags)) if (vs[i] !== null && vs[i] !== undefined) values[tag] = vs[i];
    records.push(tfRecord(scalarEvent(step, values)));
  });
  return new Uint8Array(Buffer.concat(records));
}
