import { describe, expect, it } from '@jest/globals';
import { guideBlocks, typescriptModule } from './guide-blocks.js';
import { browserScript } from './guide-browser.js';

const GUIDE = [
  '# A guide',
  '```sh',
  'echo one',
  '```',
  '```json',
  '{"a":1}',
  '```',
  '```sh no-run: needs a second terminal',
  'npm start',
  '```',
  '```ts',
  "import { a } from 'x';",
  'a();',
  '```',
  '````bash',
  '```',
  '````',
].join('\n');

describe('guideBlocks', () => {
  it('numbers every fenced block and says which run, in which language, and why one is skipped', () => {
    expect(
      guideBlocks(GUIDE).map(({ number, line, info, runs, skipReason }) => ({ number, line, info, runs, skipReason })),
    ).toEqual([
      { number: 1, line: 2, info: 'sh', runs: 'sh', skipReason: undefined },
      { number: 2, line: 5, info: 'json', runs: undefined, skipReason: undefined },
      { number: 3, line: 8, info: 'sh', runs: undefined, skipReason: 'needs a second terminal' },
      { number: 4, line: 11, info: 'ts', runs: 'ts', skipReason: undefined },
      { number: 5, line: 15, info: 'bash', runs: 'sh', skipReason: undefined },
    ]);
    expect(guideBlocks(GUIDE)[4].code).toBe('```');
  });

  it('refuses a no-run block without a reason and a fence never closed', () => {
    expect(() => guideBlocks('```sh no-run\nx\n```', 'g.md')).toThrow('g.md:1: a no-run block says why');
    expect(() => guideBlocks('text\n```sh\nx', 'g.md')).toThrow('g.md:2: the code fence is never closed');
  });

  it('joins TypeScript blocks into one module, imports first and each block marked', () => {
    const blocks = guideBlocks('```ts\nimport { a } from "x";\na();\n```\n```ts\nimport { a } from "x";\nb();\n```');
    expect(typescriptModule(blocks, (n) => `// ${n}`)).toBe(
      'import { a } from "x";\nexport {};\n// 1\na();\n// 2\nb();\n',
    );
  });
});

describe('browser blocks', () => {
  it('runs `js browser` blocks in a browser; a plain `js` block is a sample; a browser block may be skipped', () => {
    const blocks = guideBlocks(
      '```js browser\nx();\n```\n```js\ny();\n```\n```js browser no-run: needs Google\nz();\n```',
    );
    expect(blocks.map(({ info, runs, skipReason }) => ({ info, runs, skipReason }))).toEqual([
      { info: 'js', runs: 'browser', skipReason: undefined },
      { info: 'js', runs: undefined, skipReason: undefined },
      { info: 'js', runs: undefined, skipReason: 'needs Google' },
    ]);
  });

  it("reads the browser packages' imports from their globals and refuses any other import", () => {
    expect(browserScript("import { startRegistration as register } from '@simplewebauthn/browser';\nregister();")).toBe(
      'const { startRegistration: register } = globalThis.SimpleWebAuthnBrowser;\nregister();',
    );
    expect(() => browserScript("import { x } from 'left-pad';")).toThrow('a browser block imports only');
    expect(() => browserScript("import x from '@simplewebauthn/browser';")).toThrow('a browser block imports only');
  });
});
