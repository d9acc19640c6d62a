import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import { MessageType, NAMESPACES } from './messages.js';

/** A file the service cannot trust as the message it claims to be; `reason` says why, for people. */
export class Iso20022Error extends Error {
  constructor(readonly reason: string) {
    super(`ISO 20022: ${reason}`);
    this.name = 'Iso20022Error';
  }
}

/** Larger files are refused before parsing. */
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;

/** An element as the parser gives it: child elements by name, attributes as `@_name`, text as `#text`. */
export type XmlNode = { [name: string]: XmlValue };
export type XmlValue = string | XmlNode | XmlValue[];

/** A parsed element together with the path that leads to it, so that errors can say where. */
export interface At {
  node: XmlNode;
  path: string;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Only the predefined and numeric character references: a DOCTYPE (and with it any entity) is refused before.
  processEntities: true,
  htmlEntities: true,
  transformTagName: (name) => name.replace(/^[^:]*:/, ''),
  maxNestedTags: 64,
});

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  format: true,
  indentBy: '  ',
  suppressEmptyNode: false,
  processEntities: true,
});

/** The prefix and local name of the document element, skipping the prolog and comments. */
function rootTag(xml: string): { prefix?: string; local: string; at: number } | undefined {
  const m = /^(?:\s|\uFEFF|<\?[\s\S]*?\?>|<!--[\s\S]*?-->)*<(?:([A-Za-z_][\w.-]*):)?([A-Za-z_][\w.-]*)/.exec(xml);
  return m ? { prefix: m[1], local: m[2], at: m[0].lastIndexOf('<') } : undefined;
}

function refuseUnsafe(xml: string): void {
  if (Buffer.byteLength(xml, 'utf8') > MAX_DOCUMENT_BYTES)
    throw new Iso20022Error(`document larger than ${MAX_DOCUMENT_BYTES} bytes`);
  if (/<!DOCTYPE/i.test(xml)) throw new Iso20022Error('document has a DOCTYPE (refused: no DTDs or entities)');
  if (/<!ENTITY/i.test(xml)) throw new Iso20022Error('document declares an ENTITY (refused)');
}

/** How far into a file the document element is looked for when telling its message type. */
const HEAD_CHARS = 64 * 1024;

/** The namespace of the document element, or undefined when the text is not XML with a root element. */
export function documentNamespace(xml: string): string | undefined {
  xml = xml.slice(0, HEAD_CHARS);
  const root = rootTag(xml);
  if (!root) return undefined;
  const attr = root.prefix ? `xmlns:${root.prefix}` : 'xmlns';
  const end = xml.indexOf('>', root.at);
  const open = xml.slice(root.at, end < 0 ? undefined : end);
  const m = new RegExp(`\\s${attr.replace(/\./g, '\\.')}\\s*=\\s*(["'])(.*?)\\1`).exec(open);
  return m?.[2];
}

/** The message type a file claims by its namespace, if it is one of the five. */
export function messageTypeOf(xml: string): MessageType | undefined {
  const ns = documentNamespace(xml);
  return (Object.keys(NAMESPACES) as MessageType[]).find((t) => NAMESPACES[t] === ns);
}

/**
 * Element names are read without their prefixes, so every element must be in the document's namespace: refuses
 * an element whose prefix is bound elsewhere and a default namespace declared to something else.
 */
function refuseForeignElements(xml: string, ns: string): void {
  const bound = new Map<string, string>();
  for (const m of xml.matchAll(/\sxmlns:([A-Za-z_][\w.-]*)\s*=\s*(["'])(.*?)\2/g)) {
    if (bound.has(m[1]) && bound.get(m[1]) !== m[3]) bound.set(m[1], '(rebound)');
    else bound.set(m[1], m[3]);
  }
  for (const m of xml.matchAll(/<([A-Za-z_][\w.-]*):[A-Za-z_]/g)) {
    const bound1 = bound.get(m[1]);
    if (bound1 !== ns) throw new Iso20022Error(`element prefix ${m[1]} is bound to ${bound1 ?? 'nothing'}, not ${ns}`);
  }
  for (const m of xml.matchAll(/\sxmlns\s*=\s*(["'])(.*?)\1/g))
    if (m[2] !== ns) throw new Iso20022Error(`an element declares the default namespace ${m[2] || '(none)'}`);
}

/**
 * Parses an ISO 20022 document of the given type and returns its message element (e.g. CstmrCdtTrfInitn).
 * Refuses oversize input, DOCTYPE/ENTITY, malformed XML, a root other than Document and a wrong namespace.
 */
export function parseDocument(xml: string, type: MessageType, messageElement: string): At {
  if (typeof xml !== 'string') throw new Iso20022Error('document is not text');
  refuseUnsafe(xml);
  const root = rootTag(xml);
  if (!root) throw new Iso20022Error(`not a ${type} document (no XML root element)`);
  const checked = XMLValidator.validate(xml);
  if (checked !== true) {
    const { msg, line, col } = checked.err;
    throw new Iso20022Error(`malformed XML at line ${line}, column ${col}: ${msg}`);
  }
  if (root.local !== 'Document') throw new Iso20022Error(`not a ${type} document (root element ${root.local})`);
  const ns = documentNamespace(xml);
  if (ns !== NAMESPACES[type]) throw new Iso20022Error(`not a ${type} document (namespace ${ns ?? 'missing'})`);
  refuseForeignElements(xml, ns);
  let parsed: XmlNode;
  try {
    parsed = parser.parse(xml) as XmlNode;
  } catch (e) {
    throw new Iso20022Error(`malformed XML: ${(e as Error).message}`);
  }
  const doc = one({ node: parsed, path: '' }, 'Document');
  return one(doc, messageElement);
}

function describe(path: string, name: string): string {
  return path ? `${path}/${name}` : name;
}

function isNode(v: XmlValue | undefined): v is XmlNode {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** All children of that name (none, one or many), each with its path (`PmtInf[2]`). */
export function all(at: At, name: string): At[] {
  const v = at.node[name];
  if (v === undefined) return [];
  const list = Array.isArray(v) ? v : [v];
  return list.map((item, i) => {
    const path = describe(at.path, list.length > 1 ? `${name}[${i + 1}]` : name);
    if (isNode(item)) return { node: item, path };
    // A leaf with text only: keep its text under #text so that text() reads it.
    return { node: { '#text': typeof item === 'string' ? item : '' }, path };
  });
}

/** The one child of that name; refuses none or several. */
export function one(at: At, name: string): At {
  const found = optional(at, name);
  if (!found) throw new Iso20022Error(`missing ${describe(at.path, name)}`);
  return found;
}

export function optional(at: At, name: string): At | undefined {
  const list = all(at, name);
  if (list.length > 1) throw new Iso20022Error(`${describe(at.path, name)} appears ${list.length} times`);
  return list[0];
}

/** Text of an element reached by a slash path (`GrpHdr/MsgId`); refuses when missing or empty. */
export function text(at: At, path: string): string {
  const value = optText(at, path);
  if (value === undefined || value === '') throw new Iso20022Error(`missing ${describe(at.path, path)}`);
  return value;
}

export function optText(at: At, path: string): string | undefined {
  let cur: At | undefined = at;
  for (const name of path.split('/')) {
    cur = optional(cur, name);
    if (!cur) return undefined;
  }
  const t = cur.node['#text'];
  if (t === undefined) return Object.keys(cur.node).some((k) => !k.startsWith('@_')) ? undefined : '';
  return typeof t === 'string' ? t : String(t);
}

/** The element's own text; refuses an empty one. */
export function ownText(at: At): string {
  const t = at.node['#text'];
  if (typeof t !== 'string' || t === '') throw new Iso20022Error(`${at.path} is empty`);
  return t;
}

export function attr(at: At, name: string): string | undefined {
  const v = at.node[`@_${name}`];
  return typeof v === 'string' ? v : undefined;
}

/** Serialises a message body as an ISO 20022 document of the given type, with the XML declaration. */
export function buildDocument(type: MessageType, messageElement: string, body: XmlNode): string {
  const doc = { Document: { '@_xmlns': NAMESPACES[type], [messageElement]: body } };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build(doc)}`;
}

/** Elements by name as a writer lists them, an undefined one to be left out. */
export type XmlFields = Record<string, XmlValue | undefined>;

/** Drops undefined members so that the builder writes only what is present (element order is key order). */
export function compact(node: XmlFields): XmlNode {
  const out: XmlNode = {};
  for (const [k, v] of Object.entries(node)) if (v !== undefined) out[k] = v;
  return out;
}
