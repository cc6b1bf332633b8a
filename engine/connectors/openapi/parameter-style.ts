/**
 * How an OpenAPI parameter's value is written into a request by its `style` and `explode`
 * (OpenAPI 3.1, Style Values). Query: `form` (the default; explode true: `a=1&a=2`, an object
 * `k=v&k2=v2`; explode false: `a=1,2`, `a=k,v,k2,v2`), `spaceDelimited` (`a=1%202`),
 * `pipeDelimited` (`a=1|2`), `deepObject` (`a[k]=v`). Path: `simple` (the default: `1,2`;
 * an object `k,v` or, exploded, `k=v`), `label` (`.1.2` or `.1,2`) and `matrix` (`;a=1;a=2` or
 * `;a=1,2`). Header: `simple`. A parameter the document gives as `content` is its media type's
 * text (JSON for a JSON type). Names and values are percent-encoded; the delimiters the style
 * puts between them are not.
 *
 * The operation binding keeps a parameter's style and explode only where they differ from its
 * location's default (see {@link bindingStyle}), so an operation that uses the defaults keeps its
 * contract digest.
 */
import type { JsonValue } from '../../contracts/names.ts';
import type { OperationParameter, ParameterStyle } from '../../contracts/sources.ts';

type Location = OperationParameter['in'];

/** The styles each location takes; the first is its default. */
const STYLES: { readonly [L in Location]: readonly ParameterStyle[] } = {
  path: ['simple', 'label', 'matrix'],
  query: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'],
  header: ['simple'],
  cookie: ['form'],
};

const defaultStyle = (location: Location): ParameterStyle => STYLES[location][0] ?? 'simple';

/**
 * What the binding records of a parameter's style: the style when it is one its location takes
 * and not the default, explode when it differs from the default for that style; nothing else.
 */
export function bindingStyle(
  location: Location,
  style: unknown,
  explode: unknown,
): { style?: ParameterStyle; explode?: boolean } {
  const chosen = STYLES[location].find((s) => s === style) ?? defaultStyle(location);
  const exploded = typeof explode === 'boolean' ? explode : chosen === 'form';
  const out: { style?: ParameterStyle; explode?: boolean } = {};
  if (chosen !== defaultStyle(location)) out.style = chosen;
  if (exploded !== (defaultStyle(location) === 'form')) out.explode = exploded;
  return out;
}

/** The style and explode a call uses for `parameter`: the binding's, else its location's defaults. */
function styleOf(parameter: OperationParameter): { style: ParameterStyle; explode: boolean } {
  const style = parameter.style ?? defaultStyle(parameter.in);
  return { style, explode: parameter.explode ?? defaultStyle(parameter.in) === 'form' };
}

const encode = encodeURIComponent;

/** A `content` parameter's text: JSON for a JSON media type, else the value as text. */
function contentText(value: JsonValue, mediaType: string): string {
  return /json/i.test(mediaType) ? JSON.stringify(value) : scalar(value);
}

function scalar(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** An object's members as [name, value] text pairs (null members left out, as absent). */
function members(value: { readonly [key: string]: JsonValue }): [string, string][] {
  return Object.entries(value).flatMap(([k, v]): [string, string][] =>
    v === null || v === undefined ? [] : [[k, scalar(v)]],
  );
}

const isObject = (value: JsonValue): value is { [key: string]: JsonValue } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `name=value` pieces (encoded) a query parameter adds to the query string. */
export function queryPieces(parameter: OperationParameter, value: JsonValue): string[] {
  const name = encode(parameter.name);
  if (parameter.mediaType !== undefined)
    return [`${name}=${encode(contentText(value, parameter.mediaType))}`];
  const { style, explode } = styleOf(parameter);
  if (Array.isArray(value)) {
    const items = value.map((item) => encode(scalar(item)));
    // Exploded, every style repeats the name (`a=1&a=2`); else the style's delimiter joins them.
    if (explode) return items.map((item) => `${name}=${item}`);
    if (style === 'spaceDelimited') return [`${name}=${items.join('%20')}`];
    if (style === 'pipeDelimited') return [`${name}=${items.join('|')}`];
    return [`${name}=${items.join(',')}`];
  }
  if (isObject(value)) {
    const pairs = members(value);
    if (style === 'deepObject') return pairs.map(([k, v]) => `${name}[${encode(k)}]=${encode(v)}`);
    if (style === 'form' && explode) return pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`);
    const flat = pairs.flatMap(([k, v]) => [encode(k), encode(v)]);
    const delimiter = style === 'spaceDelimited' ? '%20' : style === 'pipeDelimited' ? '|' : ',';
    return [`${name}=${flat.join(delimiter)}`];
  }
  return [`${name}=${encode(scalar(value))}`];
}

/** A path parameter's text (encoded) in place of `{name}`. */
export function pathText(parameter: OperationParameter, value: JsonValue): string {
  if (parameter.mediaType !== undefined) return encode(contentText(value, parameter.mediaType));
  const { style, explode } = styleOf(parameter);
  const name = encode(parameter.name);
  let items: string[];
  let pairs: [string, string][] | undefined;
  if (Array.isArray(value)) items = value.map((item) => encode(scalar(item)));
  else if (isObject(value)) {
    pairs = members(value).map(([k, v]): [string, string] => [encode(k), encode(v)]);
    items = explode ? pairs.map(([k, v]) => `${k}=${v}`) : pairs.flat();
  } else items = [encode(scalar(value))];
  if (style === 'label') return `.${items.join(explode ? '.' : ',')}`;
  if (style === 'matrix') {
    if (pairs && explode) return pairs.map(([k, v]) => `;${k}=${v}`).join('');
    if (Array.isArray(value) && explode) return items.map((item) => `;${name}=${item}`).join('');
    return `;${name}=${items.join(',')}`;
  }
  return items.join(',');
}

/** A header parameter's value (simple style; not encoded: a header carries text). */
export function headerText(parameter: OperationParameter, value: JsonValue): string {
  if (parameter.mediaType !== undefined) return contentText(value, parameter.mediaType);
  if (Array.isArray(value)) return value.map(scalar).join(',');
  if (isObject(value)) {
    const pairs = members(value);
    return (parameter.explode === true ? pairs.map(([k, v]) => `${k}=${v}`) : pairs.flat()).join(',');
  }
  return scalar(value);
}
