/**
 * The fenced code blocks of a guide (`docs/guides/*.md`), as `test/e2e/guides.e2e.spec.ts` runs them. A block runs
 * when its info string is `sh`, `bash`, `ts` or `js browser` (run in a browser page, `test/support/guide-browser.ts`);
 * `sh no-run: <reason>` (any runnable language) is skipped and must say why; every other language (`json`, `http`,
 * `text`, `js`, none) is an output sample or a shape and never runs.
 */
export type BlockLanguage = 'sh' | 'ts' | 'browser';

export interface GuideBlock {
  /** 1-based, counting every fenced block of the guide (so a failure names the block a reader can count to). */
  number: number;
  /** The line of the opening fence, 1-based. */
  line: number;
  /** The fence's first word (`sh`, `json`, ...), empty when it has none. */
  info: string;
  /** `sh`, `ts` or `browser` when the block runs, otherwise undefined. */
  runs?: BlockLanguage;
  /** Why a runnable-language block is skipped (`no-run: <reason>`). */
  skipReason?: string;
  code: string;
}

const RUNNABLE: Record<string, BlockLanguage> = { sh: 'sh', bash: 'sh', ts: 'ts', typescript: 'ts' };
const FENCE = /^(`{3,}|~{3,})\s*(.*)$/;

/** The guide's fenced blocks in order; throws for an unclosed fence or a `no-run` without a reason. */
export function guideBlocks(markdown: string, guide = 'guide'): GuideBlock[] {
  const lines = markdown.split('\n');
  const blocks: GuideBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const [, fence, rest] = open;
    const end = lines.findIndex((text, j) => j > i && text.trim().startsWith(fence) && text.trim() === fence);
    if (end < 0) throw new Error(`${guide}:${i + 1}: the code fence is never closed`);
    const [info = '', ...words] = rest.trim().split(/\s+/);
    const block: GuideBlock = {
      number: blocks.length + 1,
      line: i + 1,
      info,
      code: lines.slice(i + 1, end).join('\n'),
    };
    const inBrowser = (info === 'js' || info === 'javascript') && words[0] === 'browser';
    const language: BlockLanguage | undefined = inBrowser ? 'browser' : RUNNABLE[info];
    const tail = (inBrowser ? words.slice(1) : words).join(' ');
    if (language && tail.startsWith('no-run')) {
      const reason = tail.replace(/^no-run:?\s*/, '');
      if (!reason) throw new Error(`${guide}:${i + 1}: a no-run block says why it does not run (no-run: <reason>)`);
      block.skipReason = reason;
    } else if (language) {
      block.runs = language;
    }
    blocks.push(block);
    i = end;
  }
  return blocks;
}

/** The TypeScript blocks of one guide as one module: imports first, then each block's statements in order. */
export function typescriptModule(blocks: GuideBlock[], mark: (number: number) => string): string {
  const imports: string[] = [];
  const body: string[] = [];
  for (const block of blocks) {
    body.push(mark(block.number));
    let inImport = false;
    for (const text of block.code.split('\n')) {
      if (/^import\s/.test(text) || inImport) {
        imports.push(text);
        inImport = !/;\s*$/.test(text);
      } else {
        body.push(text);
      }
    }
  }
  return [...new Set(imports), 'export {};', ...body, ''].join('\n');
}
