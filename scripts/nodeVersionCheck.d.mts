// Types of scripts/nodeVersionCheck.mjs, for the tests written in TypeScript.
export const REQUIRED_NODE_MAJOR: number;
export function nodeVersionBanner(what: string, on?: 'exit' | 'action' | 'throw'): string;
