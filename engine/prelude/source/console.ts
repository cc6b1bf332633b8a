/**
 * Prelude fragment: `console` (log, info, warn, error, debug; dir and table print like log).
 * One line per call: `log` lines as they are, the others prefixed with their level (`warn: …`).
 * Values print like a terse inspect: strings bare at the top level, objects as JSON-like text with
 * cycles, depth and length cut. Output is kept within `logBytes`; past it, calls are counted and
 * dropped without formatting anything, so a flood of logs costs almost nothing. The host keeps
 * its own count too: the guest's word is never the budget.
 */
export const CONSOLE = String.raw`
let LOG_BYTES = 0;
const LINE_CHARS = 8192;
let logBytesUsed = 0;
let logsDropped = 0;

function writeLog(level, text) {
  if (logBytesUsed >= LOG_BYTES) { logsDropped++; return; }
  let line = level === 'log' ? text : level + ': ' + text;
  if (line.length > LINE_CHARS) line = line.slice(0, LINE_CHARS) + '…';
  logBytesUsed += utf8Length(line) + 1;
  host.log(line);
}

function inspect(value, depth, seen) {
  const type = typeof value;
  if (type === 'string') return depth === 0 ? value : stringify(value);
  if (type === 'function') return '[Function' + (value.name ? ': ' + value.name : '') + ']';
  if (type === 'bigint') return safeString(value) + 'n';
  if (type !== 'object' || value === null) return safeString(value);
  if (seen.includes(value)) return '[Circular]';
  if (value instanceof Error) {
    const described = describeError(value);
    // A ToolError names its tool, as an uncaught one is reported (guest-report.ts).
    const where = described.name === 'ToolError' && described.address ? described.address + ': ' : '';
    return described.name + ': ' + where + described.message;
  }
  if (value instanceof RealDate) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (depth > 3) return isArray(value) ? '[Array]' : '[Object]';
  seen.push(value);
  try {
    if (isArray(value)) {
      const items = value.slice(0, 100).map((item) => inspect(item, depth + 1, seen));
      if (value.length > 100) items.push('… ' + (value.length - 100) + ' more');
      return '[' + items.join(', ') + ']';
    }
    if (value instanceof Map) {
      const entries = [];
      for (const [k, v] of value) entries.push(inspect(k, depth + 1, seen) + ' => ' + inspect(v, depth + 1, seen));
      return 'Map(' + value.size + ') {' + entries.join(', ') + '}';
    }
    if (value instanceof Set) {
      const entries = [];
      for (const v of value) entries.push(inspect(v, depth + 1, seen));
      return 'Set(' + value.size + ') {' + entries.join(', ') + '}';
    }
    const keys = Object.keys(value);
    const fields = keys.slice(0, 100).map((key) => stringify(key) + ': ' + inspect(value[key], depth + 1, seen));
    if (keys.length > 100) fields.push('… ' + (keys.length - 100) + ' more');
    return '{' + fields.join(', ') + '}';
  } finally {
    seen.pop();
  }
}

function formatLog(args) {
  let text = '';
  for (let i = 0; i < args.length; i++) {
    if (i > 0) text += ' ';
    try {
      text += inspect(args[i], 0, []);
    } catch (error) {
      text += '[a value that cannot be shown]';
    }
    if (text.length > LINE_CHARS) break;
  }
  return text;
}

function logger(level) {
  return (...args) => {
    if (logBytesUsed >= LOG_BYTES) { logsDropped++; return; }
    writeLog(level, formatLog(args));
  };
}

const console = freeze({
  log: logger('log'),
  info: logger('info'),
  warn: logger('warn'),
  error: logger('error'),
  debug: logger('debug'),
  dir: logger('log'),
  table: logger('log'),
});
`;
