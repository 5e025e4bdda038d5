/**
 * Counts the convolution work of an ONNX super-resolution model by reading its protobuf directly (no
 * `onnx` package in Node): every Conv node's weight initializer [Cout, Cin/group, kh, kw] costs
 * 2·Cout·(Cin/group)·kh·kw FLOP per output pixel of that conv. For the compact SR networks we ship
 * (SRVGGNetCompact: every conv at input resolution, then a pixel shuffle) that is the FLOP count per
 * INPUT pixel; the bench divides it by measured time to get achieved FLOP/s.
 * Wire format: https://protobuf.dev/programming-guides/encoding/ ; fields from onnx/onnx.proto
 * (ModelProto.graph = 7; GraphProto.node = 1, initializer = 5; NodeProto.input = 1, op_type = 4,
 * attribute = 5; AttributeProto.name = 1, i = 3; TensorProto.dims = 1, name = 8).
 */

interface Field { no: number; wire: number; value: number | Uint8Array }

function readVarint(buf: Uint8Array, pos: number): [number, number] {
  let result = 0, mul = 1, b: number;
  do {
    if (pos >= buf.length) throw new Error('onnx-flops: truncated varint');
    b = buf[pos++]!;
    result += (b & 0x7f) * mul;
    mul *= 128;
  } while (b & 0x80);
  return [result, pos];
}

function* fields(buf: Uint8Array): Generator<Field> {
  let pos = 0;
  while (pos < buf.length) {
    let key: number;
    [key, pos] = readVarint(buf, pos);
    const no = Math.floor(key / 8), wire = key & 7;
    if (wire === 0) { let v: number; [v, pos] = readVarint(buf, pos); yield { no, wire, value: v }; }
    else if (wire === 1) { pos += 8; yield { no, wire, value: 0 }; }
    else if (wire === 5) { pos += 4; yield { no, wire, value: 0 }; }
    else if (wire === 2) {
      let len: number;
      [len, pos] = readVarint(buf, pos);
      yield { no, wire, value: buf.subarray(pos, pos + len) };
      pos += len;
    } else throw new Error(`onnx-flops: unsupported wire type ${wire}`);
  }
}

const text = (b: Uint8Array): string => Buffer.from(b).toString('utf8');

function packedOrSingle(f: Field): number[] {
  if (f.wire === 0) return [f.value as number];
  const out: number[] = [];
  const b = f.value as Uint8Array;
  let pos = 0;
  while (pos < b.length) { let v: number; [v, pos] = readVarint(b, pos); out.push(v); }
  return out;
}

/** One Conv layer of the model: weight shape and its FLOP per output pixel. */
export interface ConvLayer { weight: string; shape: number[]; group: number; flopPerPixel: number }

/**
 * Parses an ONNX model and returns its Conv layers and their summed FLOP per output pixel.
 * @param model the .onnx file's bytes
 * @throws Error 'onnx-flops: …' on a malformed protobuf
 */
export function convFlopsPerPixel(model: Uint8Array): { layers: ConvLayer[]; flopPerPixel: number } {
  let graph: Uint8Array | undefined;
  for (const f of fields(model)) if (f.no === 7 && f.wire === 2) graph = f.value as Uint8Array;
  if (!graph) throw new Error('onnx-flops: no graph in model');
  const dims = new Map<string, number[]>();
  const convs: Array<{ weight: string; group: number }> = [];
  for (const f of fields(graph)) {
    if (f.wire !== 2) continue;
    if (f.no === 5) {
      let name = '';
      const d: number[] = [];
      for (const t of fields(f.value as Uint8Array)) {
        if (t.no === 1) d.push(...packedOrSingle(t));
        else if (t.no === 8 && t.wire === 2) name = text(t.value as Uint8Array);
      }
      dims.set(name, d);
    } else if (f.no === 1) {
      const inputs: string[] = [];
      let op = '', group = 1;
      for (const n of fields(f.value as Uint8Array)) {
        if (n.no === 1 && n.wire === 2) inputs.push(text(n.value as Uint8Array));
        else if (n.no === 4 && n.wire === 2) op = text(n.value as Uint8Array);
        else if (n.no === 5 && n.wire === 2) {
          let an = '', ai = 1;
          for (const a of fields(n.value as Uint8Array)) {
            if (a.no === 1 && a.wire === 2) an = text(a.value as Uint8Array);
            else if (a.no === 3 && a.wire === 0) ai = a.value as number;
          }
          if (an === 'group') group = ai;
        }
      }
      if (op === 'Conv' && inputs[1]) convs.push({ weight: inputs[1], group });
    }
  }
  const layers: ConvLayer[] = [];
  for (const c of convs) {
    const shape = dims.get(c.weight);
    if (!shape || shape.length !== 4) continue;
    const [co, ci, kh, kw] = shape as [number, number, number, number];
    layers.push({ weight: c.weight, shape, group: c.group, flopPerPixel: 2 * co * ci * kh * kw });
  }
  return { layers, flopPerPixel: layers.reduce((s, l) => s + l.flopPerPixel, 0) };
}
