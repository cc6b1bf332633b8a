/**
 * Prelude fragment: the small web APIs the spec promises (`structuredClone`, `TextEncoder`,
 * `TextDecoder`, `atob`, `btoa`, `queueMicrotask`). Where the runtime has them (V8 in workerd)
 * its own are kept; where it has none (QuickJS) these plain versions stand in: UTF-8 only, and
 * structuredClone for data (plain objects, arrays, Map, Set, Date, RegExp, ArrayBuffer, typed
 * arrays, errors, cycles), refusing functions and symbols with a DataCloneError as the web does.
 */
export const WEB = String.raw`
function utf8Encode(text) {
  const input = String(text);
  const out = [];
  for (let i = 0; i < input.length; i++) {
    let code = input.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < input.length) {
      const low = input.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) { code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00); i++; }
      else code = 0xfffd;
    } else if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
    if (code < 0x80) out.push(code);
    else if (code < 0x800) out.push(0xc0 | (code >> 6), 0x80 | (code & 63));
    else if (code < 0x10000) out.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    else out.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
  }
  return new Uint8Array(out);
}

function utf8Decode(bytes, fatal) {
  let text = '';
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    let code = -1, extra = 0, min = 0;
    if (b < 0x80) { code = b; } else if (b >= 0xc2 && b < 0xe0) { code = b & 31; extra = 1; min = 0x80; }
    else if (b >= 0xe0 && b < 0xf0) { code = b & 15; extra = 2; min = 0x800; }
    else if (b >= 0xf0 && b < 0xf5) { code = b & 7; extra = 3; min = 0x10000; }
    let j = 1;
    for (; j <= extra; j++) {
      const c = bytes[i + j];
      if (c === undefined || (c & 0xc0) !== 0x80) break;
      code = (code << 6) | (c & 63);
    }
    if (code < 0 || j <= extra || code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      if (fatal) throw new TypeError('The encoded data was not valid UTF-8');
      text += '\ufffd';
      i += Math.max(1, j);
      continue;
    }
    text += code > 0xffff ? fromCharCode(0xd800 + ((code - 0x10000) >> 10), 0xdc00 + ((code - 0x10000) & 1023)) : fromCharCode(code);
    i += extra + 1;
  }
  return text;
}

class PreludeTextEncoder {
  get encoding() { return 'utf-8'; }
  encode(text) { return utf8Encode(text === undefined ? '' : text); }
}

class PreludeTextDecoder {
  constructor(label, options) {
    const name = label === undefined ? 'utf-8' : String(label).trim().toLowerCase();
    if (name !== 'utf-8' && name !== 'utf8' && name !== 'unicode-1-1-utf-8') {
      throw new RangeError('TextDecoder in the sandbox decodes utf-8 only, not ' + name);
    }
    this.fatal = Boolean(options && options.fatal);
    this.ignoreBOM = Boolean(options && options.ignoreBOM);
  }
  get encoding() { return 'utf-8'; }
  decode(input) {
    if (input === undefined) return '';
    let bytes;
    if (input instanceof ArrayBuffer) bytes = new Uint8Array(input);
    else if (ArrayBuffer.isView(input)) bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    else throw new TypeError('TextDecoder.decode takes an ArrayBuffer or a view of one');
    const text = utf8Decode(bytes, this.fatal);
    return !this.ignoreBOM && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function invalidCharacter(message) {
  const error = new Error(message);
  defineProperty(error, 'name', { value: 'InvalidCharacterError' });
  return error;
}
function preludeBtoa(data) {
  const text = String(data);
  let out = '';
  for (let i = 0; i < text.length; i += 3) {
    const a = text.charCodeAt(i), b = text.charCodeAt(i + 1), c = text.charCodeAt(i + 2);
    if (a > 255 || b > 255 || c > 255) throw invalidCharacter('btoa takes Latin-1 text; encode other text first');
    out += BASE64[a >> 2] + BASE64[((a & 3) << 4) | (i + 1 < text.length ? b >> 4 : 0)];
    out += i + 1 < text.length ? BASE64[((b & 15) << 2) | (i + 2 < text.length ? c >> 6 : 0)] : '=';
    out += i + 2 < text.length ? BASE64[c & 63] : '=';
  }
  return out;
}
function preludeAtob(data) {
  let text = String(data).replace(/[\t\n\f\r ]/g, '');
  if (text.length % 4 === 0) text = text.replace(/==?$/, '');
  if (text.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(text)) throw invalidCharacter('atob takes base64 text');
  let out = '', bits = 0, value = 0;
  for (let i = 0; i < text.length; i++) {
    value = (value << 6) | BASE64.indexOf(text[i]);
    bits += 6;
    if (bits >= 8) { bits -= 8; out += fromCharCode((value >> bits) & 255); }
  }
  return out;
}

function dataCloneError(what) {
  const error = new Error(what + ' could not be cloned');
  defineProperty(error, 'name', { value: 'DataCloneError' });
  return error;
}
function preludeStructuredClone(value) {
  const copies = new Map();
  const clone = (input) => {
    const type = typeof input;
    if (type === 'function' || type === 'symbol') throw dataCloneError(safeString(type === 'function' ? '[Function]' : 'a symbol'));
    if (type !== 'object' || input === null) return input;
    if (copies.has(input)) return copies.get(input);
    let copy;
    if (isArray(input)) {
      copy = [];
      copies.set(input, copy);
      for (let i = 0; i < input.length; i++) copy[i] = clone(input[i]);
      return copy;
    }
    if (input instanceof RealDate) copy = new RealDate(input.getTime());
    else if (input instanceof RegExp) copy = new RegExp(input.source, input.flags);
    else if (input instanceof ArrayBuffer) copy = input.slice(0);
    else if (ArrayBuffer.isView(input)) {
      copy = new input.constructor(clone(input.buffer), input.byteOffset, input instanceof DataView ? input.byteLength : input.length);
    } else if (input instanceof Map) {
      copy = new Map();
      copies.set(input, copy);
      for (const [k, v] of input) copy.set(clone(k), clone(v));
      return copy;
    } else if (input instanceof Set) {
      copy = new Set();
      copies.set(input, copy);
      for (const v of input) copy.add(clone(v));
      return copy;
    } else if (input instanceof Error) {
      copy = new Error(input.message);
      defineProperty(copy, 'name', { value: input.name, writable: true, configurable: true });
    } else if (input instanceof WeakMap || input instanceof WeakSet || input instanceof NativePromise) {
      throw dataCloneError('#<' + (input.constructor && input.constructor.name) + '>');
    } else {
      copy = {};
      copies.set(input, copy);
      for (const key of Object.keys(input)) copy[key] = clone(input[key]);
      return copy;
    }
    copies.set(input, copy);
    return copy;
  };
  return clone(value);
}

const web = {
  TextEncoder: typeof G.TextEncoder === 'function' ? G.TextEncoder : PreludeTextEncoder,
  TextDecoder: typeof G.TextDecoder === 'function' ? G.TextDecoder : PreludeTextDecoder,
  atob: typeof G.atob === 'function' ? G.atob : preludeAtob,
  btoa: typeof G.btoa === 'function' ? G.btoa : preludeBtoa,
  structuredClone: typeof G.structuredClone === 'function' ? G.structuredClone : preludeStructuredClone,
  queueMicrotask: typeof G.queueMicrotask === 'function'
    ? G.queueMicrotask
    : function queueMicrotask(callback) {
        if (typeof callback !== 'function') throw new TypeError('queueMicrotask takes a function');
        then(NativePromise.resolve(), () => callback());
      },
};
`;
