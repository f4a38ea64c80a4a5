/** Small formatters shared by the commands. */
export const tokens = (value: number): string => `${value.toLocaleString('en-US')} tokens`;
export const count = (value: number, noun: string, plural = `${noun}s`): string => `${value} ${value === 1 ? noun : plural}`;
export const percent = (value: number): string => `${Math.round(value * 10) / 10}%`;
/** Tokens as US$ at the smallest pack's rate (pack10: US$10 for 3.3M tokens). */
export const usd = (tokenCount: number): string => `US$${((tokenCount / 3_300_000) * 10).toFixed(2)}`;
export const today = (now = new Date()): string => now.toISOString().slice(0, 10);
