/** The mark every sandbox-mode discovery result and generated document carries. */
export const SANDBOX_WATERMARK = 'SANDBOX SAMPLE – not for compliance use';
