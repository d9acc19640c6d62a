/** The finished build's stamp, relative to the repository root; its modification time is the build's start. */
export declare const STAMP_PATH: string;
/** Why the build of `repo` is needed, or undefined when its last finished build is newer than every source. */
export declare function staleness(entries?: string[], repo?: string): string | undefined;
