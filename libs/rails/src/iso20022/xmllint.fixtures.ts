/**
 * Test support: libxml2's xmllint as the independent checker of what the codecs write. Schema validation
 * against ISO 20022's published XSDs (schemas/), and XPath reads that do not share any code with the readers.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageType } from './messages.js';

const SCHEMAS = join(fileURLToPath(new URL('.', import.meta.url)), 'schemas');

export function schemaPath(type: MessageType): string {
  return join(SCHEMAS, `${type}.xsd`);
}

function withFile<T>(xml: string, run: (file: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'iso20022-'));
  try {
    const file = join(dir, 'message.xml');
    writeFileSync(file, xml);
    return run(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `xmllint --noout --schema`; returns its verdict and output (the errors, if any). */
export function validateAgainstXsd(xml: string, type: MessageType): { ok: boolean; output: string } {
  return withFile(xml, (file) => {
    const r = spawnSync('xmllint', ['--noout', '--nonet', '--schema', schemaPath(type), file], { encoding: 'utf8' });
    return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
  });
}

/** Evaluates an XPath 1.0 expression with `xmllint --xpath` and returns its text output. */
export function xpath(xml: string, expression: string): string {
  return withFile(xml, (file) =>
    execFileSync('xmllint', ['--nonet', '--xpath', expression, file], { encoding: 'utf8' }).trim(),
  );
}

/** The string value of the n-th (1-based) element with that local name, in document order. */
export function nth(xml: string, localName: string, n = 1): string {
  return xpath(xml, `string((//*[local-name()='${localName}'])[${n}])`);
}

/** How many elements with that local name the document holds. */
export function count(xml: string, localName: string): number {
  return Number(xpath(xml, `count(//*[local-name()='${localName}'])`));
}

/** Whether xmllint is on this machine (the CI installs libxml2-utils). */
export function haveXmllint(): boolean {
  return spawnSync('xmllint', ['--version']).status === 0;
}
