/**
 * Corrupted copies of real bank files, generated deterministically: each must be refused by the rail whole (every
 * one of them either cannot be read, is not for the rail, or has no entry the rail could take).
 */

/** The real files the variants derive from, and what they name. */
export interface VariantBases {
  /** pain.002 on the payout's file. */
  pain002: string;
  /** camt.054 booking the payout. */
  camt054: string;
  /** camt.053 of the day, its entries those of the bank's account. */
  camt053: string;
  /** The payout's end-to-end id, and the amount as the files write it (`50.00`). */
  endToEndId: string;
  amount: string;
}

export interface Variant {
  name: string;
  /** What was done to which file (for failure messages). */
  label: string;
  content: string;
}

type Base = 'pain002' | 'camt054' | 'camt053';
type Mutation = [label: string, apply: (xml: string) => string];

/** Replaces exactly one occurrence (so that a mutation that finds nothing to change fails loudly). */
function once(xml: string, from: string | RegExp, to: string): string {
  const found = typeof from === 'string' ? xml.split(from).length - 1 : (xml.match(new RegExp(from, 'g'))?.length ?? 0);
  if (found === 0) throw new Error(`the base file has no ${String(from)}`);
  return xml.replace(from, to);
}

/** The XML between the first `<tag>` and its `</tag>`, tags included. */
function element(xml: string, tag: string): string {
  const start = xml.indexOf(`<${tag}>`);
  const end = xml.indexOf(`</${tag}>`, start);
  if (start < 0 || end < 0) throw new Error(`the base file has no ${tag}`);
  return xml.slice(start, end + tag.length + 3);
}

/** The element repeated: `times` copies, each through `each` (given its index). */
function repeated(xml: string, tag: string, times: number, each: (copy: string, i: number) => string): string {
  const one = element(xml, tag);
  const copies = Array.from({ length: times }, (_, i) => each(one, i)).join('\n');
  return xml.replace(one, copies);
}

/** Every base: what no file from the bank may look like. */
function common(base: Base): Mutation[] {
  const empty = { pain002: '', camt054: '   \n', camt053: '\uFEFF' }[base];
  return [
    ['other namespace version', (x) => x.replace(/(pain\.002|camt\.05[34])\.001\.(08|10)/g, '$1.001.02')],
    ['foreign namespace', (x) => once(x, /xmlns="[^"]*"/, 'xmlns="urn:example:not-iso"')],
    ['no namespace', (x) => once(x, / xmlns="[^"]*"/, '')],
    ['base64 text', (x) => Buffer.from(x).toString('base64')],
    ['JSON', (x) => JSON.stringify({ file: x })],
    ['reversed text', (x) => [...x].reverse().join('')],
    [
      'DOCTYPE with an external entity',
      (x) => once(x, '<Document', '<!DOCTYPE d [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n<Document'),
    ],
    ['ENTITY declared', (x) => once(x, '<Document', '<!ENTITY a "x">\n<Document')],
    ['empty', () => empty],
  ];
}

function pain002(b: VariantBases): Mutation[] {
  const e2e = `<OrgnlEndToEndId>${b.endToEndId}</OrgnlEndToEndId>`;
  const unknown = (id: string) => (x: string) => once(x, e2e, `<OrgnlEndToEndId>${id}</OrgnlEndToEndId>`);
  return [
    ['unknown end-to-end id', unknown('UNKNOWN-000001')],
    ['end-to-end id in lower case', unknown(b.endToEndId.toLowerCase())],
    ['end-to-end id with a suffix', unknown(`${b.endToEndId}X`)],
    ['unknown original message id', (x) => x.replace(/<OrgnlMsgId>[^<]*</, '<OrgnlMsgId>CT-00000000-USD-999999<')],
    ['original message id of a pull file', (x) => x.replace(/<OrgnlMsgId>CT-/, '<OrgnlMsgId>DD-')],
    ['unknown status code', (x) => x.replace(/<TxSts>[^<]*</, '<TxSts>XXXX<')],
    ['duplicated status line', (x) => repeated(x, 'TxInfAndSts', 2, (c) => c)],
    [
      'duplicated line, accepted then rejected',
      (x) => repeated(x, 'TxInfAndSts', 2, (c, i) => (i ? c.replace(/<TxSts>[^<]*</, '<TxSts>RJCT<') : c)),
    ],
    [
      'original message of another kind',
      (x) => x.replace('<OrgnlMsgNmId>pain.001.001.09<', '<OrgnlMsgNmId>camt.060.001.05<'),
    ],
    ['no message id', (x) => x.replace(/<MsgId>[^<]*<\/MsgId>/, '')],
    [
      '1,000 status lines of unknown payments',
      (x) => repeated(x, 'TxInfAndSts', 1_000, (c, i) => c.replace(b.endToEndId, `UNKNOWN-${i}`)),
    ],
  ];
}

function camt054(b: VariantBases): Mutation[] {
  const amt = `<Amt Ccy="USD">${b.amount}</Amt>`;
  const amount = (to: string) => (x: string) => once(x, amt, `<Amt Ccy="USD">${to}</Amt>`);
  const [whole, cents] = b.amount.split('.');
  const e2e = `<EndToEndId>${b.endToEndId}</EndToEndId>`;
  const summary = (count: number, sum: string) => (x: string) =>
    once(
      x,
      '<Ntry>',
      `<TxsSummry><TtlNtries><NbOfNtries>${count}</NbOfNtries><Sum>${sum}</Sum></TtlNtries></TxsSummry>\n<Ntry>`,
    );
  return [
    ['amount one cent more', amount(`${whole}.${String(Number(cents) + 1).padStart(2, '0')}`)],
    ['amount one cent less', amount(`${Number(whole) - 1}.99`)],
    ['amount ten times', amount(`${whole}0.${cents}`)],
    ['amount zero', amount('0.00')],
    ['amount without its cents', amount(`${Number(whole) + 1}`)],
    ['amount with 3 decimals', amount(`${b.amount}1`)],
    ['same amount with 3 decimals', amount(`${b.amount}0`)],
    ['negative amount', amount(`-${b.amount}`)],
    ['amount in another currency', (x) => once(x, amt, `<Amt Ccy="EUR">${b.amount}</Amt>`)],
    ['account in another currency', (x) => once(x, '<Ccy>USD</Ccy>', '<Ccy>EUR</Ccy>')],
    ['another account number', (x) => once(x, '<Id>7000123456</Id>', '<Id>7000123457</Id>')],
    [
      'an IBAN account',
      (x) => once(x, /<Othr>\s*<Id>7000123456<\/Id>\s*<\/Othr>/, '<IBAN>DE89370400440532013000</IBAN>'),
    ],
    ['unknown end-to-end id', (x) => once(x, e2e, '<EndToEndId>UNKNOWN-000002</EndToEndId>')],
    ['no end-to-end id', (x) => once(x, /<Refs>\s*<EndToEndId>[^<]*<\/EndToEndId>\s*<\/Refs>/, '')],
    ['credit instead of debit', (x) => once(x, '<CdtDbtInd>DBIT</CdtDbtInd>', '<CdtDbtInd>CRDT</CdtDbtInd>')],
    [
      'a return of a payout never booked',
      (x) => once(x, '</RmtInf>', '</RmtInf><RtrInf><Rsn><Cd>AC06</Cd></Rsn></RtrInf>'),
    ],
    ['the entry twice', (x) => repeated(x, 'Ntry', 2, (c) => c)],
    [
      'the entry twice under two references',
      (x) => repeated(x, 'Ntry', 2, (c, i) => c.replace(/<NtryRef>[^<]*</, `<NtryRef>DUP${i}<`)),
    ],
    ['NbOfNtries 2 for one entry', summary(2, b.amount)],
    ['Sum twice the entry', summary(1, `${Number(whole) * 2}.${cents}`)],
    [
      '500 entries of unknown payments',
      (x) => repeated(x, 'Ntry', 500, (c, i) => c.replace(e2e, `<EndToEndId>UNKNOWN-${i}</EndToEndId>`)),
    ],
    [
      'larger than 20 MB',
      (x) => once(x, `<Ustrd>${b.endToEndId}`, `<Ustrd>${b.endToEndId}${' '.repeat(21 * 1024 * 1024)}`),
    ],
  ];
}

function camt053(): Mutation[] {
  const closing = /(<Cd>CLBD<\/Cd>[\s\S]*?<Amt Ccy="USD">)([^<]*)</;
  const opening = /(<Cd>OPBD<\/Cd>[\s\S]*?<Amt Ccy="USD">)([^<]*)</;
  return [
    [
      'entry amount one cent more',
      (x) =>
        x.replace(/(<Ntry>[\s\S]*?<Amt Ccy="USD">\d+\.)(\d)(\d)</, (_, p, d, c) => `${p}${d}${(Number(c) + 1) % 10}<`),
    ],
    [
      'entry amount doubled',
      (x) => x.replace(/(<Ntry>[\s\S]*?<Amt Ccy="USD">)(\d+)/, (_, p, n) => `${p}${Number(n) * 2 + 1}`),
    ],
    ['closing balance one cent off', (x) => x.replace(closing, (_, p, v) => `${p}${(Number(v) + 0.01).toFixed(2)}<`)],
    [
      'closing balance on the other side',
      (x) =>
        x.replace(
          /(<Cd>CLBD<\/Cd>[\s\S]*?<CdtDbtInd>)(CRDT|DBIT)/,
          (_, p, s) => `${p}${s === 'CRDT' ? 'DBIT' : 'CRDT'}`,
        ),
    ],
    ['opening balance one unit off', (x) => x.replace(opening, (_, p, v) => `${p}${(Number(v) + 1).toFixed(2)}<`)],
    ['entry amount with 3 decimals', (x) => x.replace(/(<Ntry>[\s\S]*?<Amt Ccy="USD">\d+\.\d\d)</, '$10<')],
    [
      'account in another currency',
      (x) => once(x, '<Ccy>USD</Ccy>', '<Ccy>EUR</Ccy>').replaceAll('Ccy="USD"', 'Ccy="EUR"'),
    ],
    ['another account number', (x) => once(x, '<Id>7000123456</Id>', '<Id>7000123999</Id>')],
    ['an entry twice', (x) => repeated(x, 'Ntry', 2, (c) => c)],
    [
      'an entry flipped to the other side',
      (x) => x.replace(/(<Ntry>[\s\S]*?<CdtDbtInd>)(CRDT|DBIT)/, (_, p, s) => `${p}${s === 'CRDT' ? 'DBIT' : 'CRDT'}`),
    ],
  ];
}

/** Offsets to cut a file at, spread evenly over its text before the end of its closing tag. */
function cuts(xml: string, count: number): number[] {
  const end = xml.lastIndexOf('</Document>') + '</Document>'.length;
  return Array.from({ length: count }, (_, i) => 1 + Math.floor(((end - 2) * i) / Math.max(1, count - 1)));
}

/** `total` variants of the three bases: the mutations of each, then truncations of each until there are enough. */
export function corruptedVariants(b: VariantBases, total: number): Variant[] {
  const out: Variant[] = [];
  const add = (base: Base, label: string, content: string) =>
    out.push({
      name: `corrupt-${String(out.length + 1).padStart(3, '0')}-${base}.xml`,
      label: `${base}: ${label}`,
      content,
    });
  const bases: [Base, Mutation[]][] = [
    ['pain002', [...common('pain002'), ...pain002(b)]],
    ['camt054', [...common('camt054'), ...camt054(b)]],
    ['camt053', [...common('camt053'), ...camt053()]],
  ];
  for (const [base, mutations] of bases)
    for (const [label, apply] of mutations) {
      const content = apply(b[base]);
      if (content === b[base]) throw new Error(`${base}: ${label} changed nothing`);
      add(base, label, content);
    }
  const left = total - out.length;
  if (left < 3) throw new Error(`${out.length} mutations leave no room for truncations within ${total}`);
  bases.forEach(([base], i) => {
    const count = Math.floor(left / 3) + (i < left % 3 ? 1 : 0);
    for (const at of cuts(b[base], count)) add(base, `truncated at ${at}`, b[base].slice(0, at));
  });
  return out;
}
