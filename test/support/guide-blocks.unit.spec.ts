import { describe, expect, it } from '@jest/globals';
import { guideBlocks, typescriptModule } from './guide-blocks.js';

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
