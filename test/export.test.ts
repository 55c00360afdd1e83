// lib/io/export: file names, the matrix encoder (nested arrays ≤ 65,536 cells, base64 float32 above, NaN kept
// or null) and its decoder, the JSON envelope and its printer, the heatmap view JSON, the layout of parts
// under a caption, and the assembled SVG document: well-formed (checked by a small XML reader written here,
// independent of the code under test) with every caption, label and token escaped.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  assembleSvg,
  CAPTION_WRAP,
  decodeMatrixJson,
  envelopeText,
  estimateTextWidth,
  exportEnvelope,
  exportFilename,
  float32Json,
  heatmapViewJson,
  jsonReady,
  layoutExport,
  MATRIX_INLINE_MAX,
  matrixJson,
  prettyJson,
  sanitizeFilename,
  stripUnsafeSvg,
  wrapText,
  xmlAttr,
  xmlEscape,
  type ExportPart,
  type PackedMatrix,
} from '../lib/io/export';
import { fromBase64 } from '../lib/io/attention/kvscopeFormat';
import type { Span } from '../lib/prompt/prompt';

// ---- a small, strict XML reader (well-formedness only) ------------------------------------------------------

interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

const ENTITY = /^&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/;
const NAME = /^[A-Za-z_][\w.:-]*/;
const decode = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/g, (_, e: string) =>
    e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : e === 'apos' ? "'" : String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)),
  );

/** Parses `xml` or throws: one root element, every tag closed in order, attributes quoted and unique, no raw `<` or stray `&`. */
function parseXml(xml: string): XmlNode {
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`not well-formed at ${i}: ${why}: ${JSON.stringify(xml.slice(Math.max(0, i - 40), i + 40))}`);
  };
  const checkText = (s: string, where: string) => {
    for (let j = s.indexOf('&'); j >= 0; j = s.indexOf('&', j + 1)) if (!ENTITY.test(s.slice(j))) fail(`bare & in ${where}`);
    // eslint-disable-next-line no-control-regex -- matching the control characters is the point
    if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(s)) fail(`control character in ${where}`);
  };
  const skipMisc = () => {
    for (;;) {
      const m = /^\s+/.exec(xml.slice(i));
      if (m) i += m[0].length;
      if (xml.startsWith('<?', i)) {
        const e = xml.indexOf('?>', i);
        if (e < 0) fail('unclosed processing instruction');
        i = e + 2;
      } else if (xml.startsWith('<!--', i)) {
        const e = xml.indexOf('-->', i);
        if (e < 0) fail('unclosed comment');
        i = e + 3;
      } else return;
    }
  };
  const element = (): XmlNode => {
    if (xml[i] !== '<') fail('expected <');
    i++;
    const nm = NAME.exec(xml.slice(i)) ?? fail('bad tag name');
    i += nm[0].length;
    const node: XmlNode = { name: nm[0], attrs: {}, children: [], text: '' };
    for (;;) {
      const ws = /^\s*/.exec(xml.slice(i))![0];
      i += ws.length;
      if (xml.startsWith('/>', i)) {
        i += 2;
        return node;
      }
      if (xml[i] === '>') {
        i++;
        break;
      }
      if (!ws) fail('attributes must be separated by white space');
      const an = NAME.exec(xml.slice(i)) ?? fail('bad attribute name');
      i += an[0].length;
      if (an[0] in node.attrs) fail(`duplicate attribute ${an[0]}`);
      const eq = /^\s*=\s*/.exec(xml.slice(i)) ?? fail('expected =');
      i += eq[0].length;
      const q = xml[i];
      if (q !== '"' && q !== "'") fail('unquoted attribute');
      const end = xml.indexOf(q!, i + 1);
      if (end < 0) fail('unterminated attribute');
      const v = xml.slice(i + 1, end);
      if (v.includes('<')) fail('< in attribute');
      checkText(v, `attribute ${an[0]}`);
      node.attrs[an[0]] = decode(v);
      i = end + 1;
    }
    for (;;) {
      const lt = xml.indexOf('<', i);
      if (lt < 0) fail(`unclosed <${node.name}>`);
      const text = xml.slice(i, lt);
      checkText(text, `<${node.name}> text`);
      node.text += decode(text);
      i = lt;
      if (xml.startsWith('</', i)) {
        i += 2;
        const cn = NAME.exec(xml.slice(i)) ?? fail('bad closing tag');
        if (cn[0] !== node.name) fail(`</${cn[0]}> closes <${node.name}>`);
        i += cn[0].length;
        const gt = /^\s*>/.exec(xml.slice(i)) ?? fail('expected >');
        i += gt[0].length;
        return node;
      }
      if (xml.startsWith('<!--', i)) {
        const e = xml.indexOf('-->', i);
        if (e < 0) fail('unclosed comment');
        i = e + 3;
        continue;
      }
      if (xml.startsWith('<![CDATA[', i)) {
        const e = xml.indexOf(']]>', i);
        if (e < 0) fail('unclosed CDATA');
        node.text += xml.slice(i + 9, e);
        i = e + 3;
        continue;
      }
      node.children.push(element());
    }
  };
  skipMisc();
  const root = element();
  skipMisc();
  if (i !== xml.length) fail('content after the root element');
  return root;
}

function* walk(n: XmlNode): Generator<XmlNode> {
  yield n;
  for (const c of n.children) yield* walk(c);
}
const allText = (n: XmlNode): string => [...walk(n)].map((x) => x.text).join('');

test('the XML reader of this test rejects what is not well-formed', () => {
  assert.doesNotThrow(() => parseXml('<?xml version="1.0"?>\n<a x="1"><b/>t &amp; &#60; <c y=\'2\'>x</c></a>\n'));
  for (const bad of ['<a><b></a></b>', '<a>1 < 2</a>', '<a>AT&T</a>', '<a x=1/>', '<a x="1" x="2"/>', '<a/><b/>', '<a>', '<a x="<"/>', '<a>\u0001</a>'])
    assert.throws(() => parseXml(bad), /not well-formed/, bad);
});

// ---- file names ----------------------------------------------------------------------------------------------

test('sanitizeFilename keeps letters of any script, digits, . _ -; replaces the rest; never empty or a device name', () => {
  assert.equal(sanitizeFilename('attention-vancouver-L3-mean'), 'attention-vancouver-L3-mean');
  assert.equal(sanitizeFilename('attention 北京 / L3: head*2?'), 'attention-北京-L3-head-2');
  assert.equal(sanitizeFilename('../../etc/passwd'), 'etc-passwd');
  assert.equal(sanitizeFilename('<script>alert(1)</script>'), 'script-alert-1-script');
  assert.equal(sanitizeFilename('...'), 'kvscope-export');
  assert.equal(sanitizeFilename(''), 'kvscope-export');
  assert.equal(sanitizeFilename('CON'), '_CON');
  assert.equal(sanitizeFilename('nul.txt'), '_nul.txt');
  assert.equal(sanitizeFilename('a\u0000b\nc\td'), 'a-b-c-d');
  const long = sanitizeFilename('x'.repeat(500));
  assert.equal(long.length, 120);
  assert.equal(exportFilename('sink bars', 'png'), 'sink-bars.png');
  assert.equal(exportFilename('', 'json'), 'kvscope-export.json');
  assert.equal(exportFilename('radix tree (correct)', 'svg'), 'radix-tree-correct.svg');
});

// ---- matrices ------------------------------------------------------------------------------------------------

function randomMatrix(rows: number, cols: number, seed: number): Float32Array {
  const m = new Float32Array(rows * cols);
  let s = seed >>> 0;
  for (let i = 0; i < m.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    m[i] = (s / 2 ** 32) * (i % 7 === 0 ? 1e-6 : 1);
  }
  return m;
}

test('float32Json gives the shortest decimal that reads back as the same float32; null for non-finite', () => {
  for (const v of [0.1, 0.5, 1 / 3, 1e-7, 123456.789, 3.4e38, 1.17549435e-38, -0.25]) {
    const f = Math.fround(v);
    const j = float32Json(f)!;
    assert.equal(Math.fround(j), f, `${v}`);
    assert.ok(String(j).length <= String(f).length, `${j} vs ${f}`);
  }
  assert.equal(float32Json(Math.fround(0.1)), 0.1);
  assert.equal(float32Json(NaN), null);
  assert.equal(float32Json(Infinity), null);
  assert.equal(float32Json(-Infinity), null);
  assert.equal(float32Json(-0), 0);
});

test('matrixJson: small matrices as nested arrays (NaN → null) that decode to the same float32 values', () => {
  const m = randomMatrix(7, 5, 1);
  m[3] = NaN;
  m[12] = Infinity;
  const j = matrixJson(m, 7, 5);
  assert.ok(Array.isArray(j));
  assert.equal(j.length, 7);
  assert.ok(j.every((r) => Array.isArray(r) && r.length === 5));
  assert.equal(j[0]![3], null);
  assert.equal(j[2]![2], null);
  // Survives JSON text, and reads back bit for bit (non-finite as NaN).
  const back = decodeMatrixJson(JSON.parse(JSON.stringify(j)));
  assert.equal(back.rows, 7);
  assert.equal(back.cols, 5);
  for (let i = 0; i < m.length; i++) {
    if (Number.isFinite(m[i]!)) assert.equal(back.data[i], m[i], `cell ${i}`);
    else assert.ok(Number.isNaN(back.data[i]!), `cell ${i}`);
  }
  // Only the first rows × cols values are used.
  assert.deepEqual(matrixJson(new Float32Array([1, 2, 3, 4, 5]), 2, 2), [[1, 2], [3, 4]]);
  assert.deepEqual(matrixJson(new Float32Array(0), 0, 0), []);
  assert.deepEqual(decodeMatrixJson([]), { rows: 0, cols: 0, data: new Float32Array(0) });
  assert.throws(() => matrixJson(new Float32Array(3), 2, 2), RangeError);
  assert.throws(() => matrixJson(new Float32Array(4), 2.5, 2), RangeError);
});

test('matrixJson: at the 65,536-cell limit nested, above it base64 little-endian float32 with NaN kept', () => {
  assert.equal(MATRIX_INLINE_MAX, 65_536);
  const atLimit = matrixJson(randomMatrix(256, 256, 2), 256, 256);
  assert.ok(Array.isArray(atLimit));
  const rows = 257;
  const cols = 256;
  const m = randomMatrix(rows, cols, 3);
  m[0] = NaN;
  m[1000] = -Infinity;
  m[rows * cols - 1] = 0.1;
  const j = matrixJson(m, rows, cols) as PackedMatrix;
  assert.ok(!Array.isArray(j));
  assert.deepEqual(Object.keys(j).sort(), ['data', 'dtype', 'encoding', 'shape']);
  assert.deepEqual(j.shape, [rows, cols]);
  assert.equal(j.dtype, 'float32');
  assert.equal(j.encoding, 'base64-le');
  // Little-endian float32, read independently of the decoder.
  const bytes = fromBase64(j.data, 'test');
  assert.equal(bytes.length, rows * cols * 4);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  assert.ok(Number.isNaN(dv.getFloat32(0, true)));
  assert.equal(dv.getFloat32(4 * 1000, true), -Infinity);
  assert.equal(dv.getFloat32(4 * 5, true), m[5]);
  assert.equal(dv.getFloat32(4 * (rows * cols - 1), true), Math.fround(0.1));
  const back = decodeMatrixJson(JSON.parse(JSON.stringify(j)));
  assert.equal(back.rows, rows);
  assert.equal(back.cols, cols);
  assert.ok(Number.isNaN(back.data[0]!));
  assert.equal(back.data[1000], -Infinity);
  for (let i = 1; i < m.length; i++) if (i !== 1000) assert.equal(back.data[i], m[i]);
  // A subarray view is encoded from its own offset.
  const big = randomMatrix(300, 300, 4);
  const sub = big.subarray(300);
  const d2 = decodeMatrixJson(matrixJson(sub, 299, 300));
  assert.deepEqual(d2.data, sub);
  // Malformed input is rejected.
  assert.throws(() => decodeMatrixJson({ ...j, shape: [rows, cols + 1] }), /bytes/);
  assert.throws(() => decodeMatrixJson([[1, 2], [3]]), /row 1/);
  assert.throws(() => decodeMatrixJson([[1, 'x']]), /cell/);
  assert.throws(() => decodeMatrixJson({ foo: 1 }), /not a matrix/);
});

// ---- JSON envelope -------------------------------------------------------------------------------------------

test('jsonReady: typed arrays as arrays, non-finite as null, undefined and functions dropped, cycles rejected', () => {
  const v = jsonReady({ f: new Float32Array([0.5, NaN]), i: new Int32Array([1, -2]), u: undefined, fn: () => 1, n: Infinity, big: 5n, s: new Set([1, 2]), m: new Map([['k', 1]]), d: new Date(0), nested: [undefined, { a: 1 }] });
  assert.deepEqual(v, { f: [0.5, null], i: [1, -2], n: null, big: '5', s: [1, 2], m: { k: 1 }, d: '1970-01-01T00:00:00.000Z', nested: [null, { a: 1 }] });
  const cyc: Record<string, unknown> = {};
  cyc.self = cyc;
  assert.throws(() => jsonReady(cyc), /cyclic/);
  // The same object twice (not a cycle) is fine.
  const shared = { x: 1 };
  assert.deepEqual(jsonReady([shared, shared]), [{ x: 1 }, { x: 1 }]);
});

test('the envelope: kvscope/version/name/title/data, pretty-printed with number rows on one line', () => {
  const env = exportEnvelope('sink bars / L3', undefined, { values: new Float32Array([0.25, 0.5]) });
  assert.deepEqual(env, { kvscope: 'view-export', version: 1, name: 'sink-bars-L3', title: null, data: { values: [0.25, 0.5] } });
  const text = envelopeText('heat', 'A <b>caption</b> & more', { matrix: [[1, 2], [3, null]], tokens: ['a', '"b"'], empty: [], o: {} });
  assert.ok(text.endsWith('\n'));
  const back = JSON.parse(text);
  assert.deepEqual(back, { kvscope: 'view-export', version: 1, name: 'heat', title: 'A <b>caption</b> & more', data: { matrix: [[1, 2], [3, null]], tokens: ['a', '"b"'], empty: [], o: {} } });
  assert.match(text, /^ {6}\[1, 2\],$/m);
  assert.match(text, /^ {6}\[3, null\]$/m);
  assert.match(text, /^ {2}"kvscope": "view-export",$/m);
  // prettyJson agrees with JSON.parse on awkward values.
  const odd = { 'k"ey': 'line\nbreak \u2028 \u0001', deep: [[[1.5e-7, -0.1]], [true, false, null]], n: -1e21 };
  assert.deepEqual(JSON.parse(prettyJson(odd)), odd);
});

test('heatmapViewJson: the view settings, tokens, spans and the matrix as drawn', () => {
  const matrix = new Float32Array([1, NaN, NaN, 0.25, 0.75, NaN, 0.1, 0.2, 0.7]);
  const spans: Span[] = [
    { start: 0, end: 1, message: 0, role: 'system', segment: 'template' },
    { start: 1, end: 3, message: 0, role: 'system', segment: 'system' },
  ];
  const j = heatmapViewJson({ model: 'tiny', scenario: 'vancouver', layer: 2, head: 'mean', scale: 'power', gamma: 0.5, colormap: 'viridis', hideSink: true, tokens: ['<|im_start|>', 'a', '&b'], spans, matrix });
  assert.deepEqual(Object.keys(j), ['kind', 'model', 'scenario', 'layer', 'head', 'scale', 'gamma', 'colormap', 'hideSink', 'tokens', 'spans', 'matrix']);
  assert.equal(j.kind, 'attention-heatmap');
  assert.deepEqual(j.tokens, ['<|im_start|>', 'a', '&b']);
  assert.deepEqual(j.spans, spans);
  assert.notEqual(j.spans[0], spans[0]);
  assert.deepEqual(j.matrix, [[1, null, null], [0.25, 0.75, null], [0.1, 0.2, 0.7]]);
  const withRange = heatmapViewJson({ model: 'm', scenario: 's', layer: 0, head: 3, scale: 'log', gamma: 1, colormap: 'magma', hideSink: false, tokens: ['a'], spans: [], matrix: new Float32Array([1]), range: { min: 0, max: 0.9 } });
  assert.deepEqual(withRange.range, { min: 0, max: 0.9 });
  assert.equal(withRange.head, 3);
  // Larger than the inline limit: packed.
  const big = heatmapViewJson({ model: 'm', scenario: 's', layer: 0, head: 'max', scale: 'linear', gamma: 1, colormap: 'cividis', hideSink: false, tokens: Array.from({ length: 300 }, (_, i) => `t${i}`), spans: [], matrix: new Float32Array(300 * 300).fill(0.5) });
  assert.deepEqual((big.matrix as PackedMatrix).shape, [300, 300]);
});

// ---- layout and SVG ------------------------------------------------------------------------------------------

const font = { family: 'system-ui, sans-serif', size: 12 };

test('layoutExport keeps positioned parts in place, stacks the others, and leaves room for the caption', () => {
  const parts: ExportPart[] = [
    { kind: 'svg', markup: '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"/>', width: 100, height: 50, x: 40, y: 30 },
    { kind: 'rect', x: 40, y: 90, width: 20, height: 10, fill: '#f00' },
    { kind: 'image', dataUrl: 'data:image/png;base64,AAAA', width: 60, height: 20 },
  ];
  const L = layoutExport(parts, { padding: 10, gap: 5 });
  assert.equal(L.caption, null);
  const [svg, rect, img] = L.parts as unknown as [{ x: number; y: number }, { x: number; y: number }, { x: number; y: number }];
  assert.deepEqual([svg.x, svg.y], [10, 10]);
  assert.deepEqual([rect.x, rect.y], [10, 70]);
  // The image goes below the lowest positioned part (y 100 → 70 + 10 + gap 5).
  assert.deepEqual([img.x, img.y], [10, 85]);
  assert.equal(L.width, 120);
  assert.equal(L.height, 85 + 20 + 10);
  const C = layoutExport(parts, { padding: 10, gap: 5, caption: 'Layer 3, head mean' });
  assert.ok(C.caption && C.caption.lines.length === 1);
  assert.ok((C.parts[0] as { y: number }).y > C.caption.lines[0]!.y, 'the content starts below the caption');
  assert.ok(C.height > L.height);
  // A long caption wraps at CAPTION_WRAP (or the content's width).
  const long = 'word '.repeat(80).trim();
  const W = layoutExport(parts, { caption: long });
  assert.ok(W.caption!.lines.length > 1);
  for (const l of W.caption!.lines) assert.ok(estimateTextWidth(l.text, W.caption!.font) <= CAPTION_WRAP + 1e-9, l.text);
  assert.equal(W.caption!.lines.join(' '), W.caption!.lines.join(' '));
  assert.equal(W.caption!.lines.map((l) => l.text).join(' '), long);
  // No parts at all: a small picture, still valid.
  const E = layoutExport([], {});
  assert.ok(E.width >= 1 && E.height >= 1);
});

test('wrapText breaks between words, and anywhere in CJK text', () => {
  assert.deepEqual(wrapText('aaa bbb ccc', 8 * 0.56 * 12, font), ['aaa bbb', 'ccc']);
  const zh = wrapText('注意力热图第三层平均所有头', 5 * 12, font);
  assert.ok(zh.length >= 2);
  assert.equal(zh.join(''), '注意力热图第三层平均所有头');
  assert.deepEqual(wrapText('', 100, font), ['']);
});

test('xmlEscape / xmlAttr make text inert and keep XML valid', () => {
  assert.equal(xmlEscape('<script>alert(1)</script> & co'), '&lt;script&gt;alert(1)&lt;/script&gt; &amp; co');
  assert.equal(xmlAttr(`a"b'c<d>&\n`), 'a&quot;b&apos;c&lt;d&gt;&amp;&#10;');
  assert.equal(xmlEscape('nul\u0000 esc\u001b \ud800 ok\ud83d\ude00'), 'nul\ufffd esc\ufffd \ufffd ok\ud83d\ude00');
});

test('stripUnsafeSvg drops scripts, foreignObject, handlers and javascript: links', () => {
  const s = stripUnsafeSvg('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><script href="x"/><foreignObject><div/></foreignObject><a href="javascript:alert(3)"><text onclick=\'x()\'>ok</text></a></svg>');
  assert.doesNotMatch(s, /script|foreignObject|onload|onclick|javascript:|<\?xml/i);
  assert.match(s, /<text>ok<\/text>/);
});

test('assembleSvg: one well-formed standalone SVG with nested <svg>, <image>, boxes, text and an escaped caption', () => {
  const evil = '<script>alert(1)</script> & "quotes" \u0001';
  const chart = '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="80" viewBox="0 0 200 80" style="font-family: system-ui; font-size: 10px;"><rect x="0" y="0" width="50" height="80" fill="#4477AA"/><text x="60" y="40">&lt;script&gt;alert(1)&lt;/script&gt; &amp; token</text></svg>';
  const parts: ExportPart[] = [
    { kind: 'text', x: 0, y: 12, text: evil, font: { family: '"Segoe UI", sans-serif', size: 12, weight: 600 }, fill: '#333', width: 200 },
    { kind: 'svg', markup: chart, width: 200, height: 80, x: 0, y: 20 },
    { kind: 'image', dataUrl: 'data:image/png;base64,iVBORw0KGgo=', width: 64, height: 64, x: 210, y: 20, pixelated: true },
    { kind: 'image', dataUrl: 'javascript:alert(1)', width: 10, height: 10, x: 0, y: 0 },
    { kind: 'rect', x: 210, y: 90, width: 14, height: 10, fill: '#EE6677', stroke: '#999', strokeWidth: 1 },
    { kind: 'line', x1: 0, y1: 105, x2: 200, y2: 105, stroke: '#d00', strokeWidth: 2, dash: [4, 3] },
  ];
  const svg = assembleSvg(parts, { caption: `Caption ${evil}` });
  const root = parseXml(svg);
  assert.equal(root.name, 'svg');
  assert.equal(root.attrs.xmlns, 'http://www.w3.org/2000/svg');
  assert.ok(Number(root.attrs.width) > 270 && Number(root.attrs.height) > 100, `${root.attrs.width} × ${root.attrs.height}`);
  const nodes = [...walk(root)];
  assert.equal(nodes.filter((n) => n.name === 'script').length, 0, 'no script element anywhere');
  // The caption and the page text are text, verbatim (the control character replaced).
  const caption = nodes.find((n) => n.attrs['data-role'] === 'caption')!;
  assert.equal(caption.text, 'Caption <script>alert(1)</script> & "quotes" \ufffd');
  assert.ok(nodes.some((n) => n.name === 'text' && n.text === '<script>alert(1)</script> & "quotes" \ufffd' && n.attrs['font-family'] === '"Segoe UI", sans-serif'));
  assert.match(allText(root), /<script>alert\(1\)<\/script> & token/);
  // The chart nested with its place and size; the canvas as one <image> (the javascript: one dropped).
  const nested = root.children.filter((n) => n.name === 'svg');
  assert.equal(nested.length, 1);
  assert.equal(nested[0]!.children[0]!.name, 'svg');
  assert.deepEqual([nested[0]!.attrs.width, nested[0]!.attrs.height], ['200', '80']);
  const images = nodes.filter((n) => n.name === 'image');
  assert.equal(images.length, 1);
  assert.equal(images[0]!.attrs.href, 'data:image/png;base64,iVBORw0KGgo=');
  assert.equal(images[0]!.attrs['xlink:href'], images[0]!.attrs.href);
  assert.equal(images[0]!.attrs.width, '64');
  assert.ok(nodes.some((n) => n.name === 'line' && n.attrs['stroke-dasharray'] === '4 3'));
  assert.ok(nodes.some((n) => n.name === 'rect' && n.attrs.fill === '#EE6677' && n.attrs.stroke === '#999'));
  // Markup with a script inside is cleaned before it is nested.
  const dirty = assembleSvg([{ kind: 'svg', markup: '<svg xmlns="http://www.w3.org/2000/svg" onload="x()"><script>alert(1)</script><g/></svg>', width: 10, height: 10 }]);
  assert.equal([...walk(parseXml(dirty))].filter((n) => n.name === 'script' || 'onload' in n.attrs).length, 0);
  // Nothing but a caption still gives a valid document.
  assert.doesNotThrow(() => parseXml(assembleSvg([], { caption: '&' })));
});
