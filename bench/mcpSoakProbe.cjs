// Preloaded into the MCP server by bench/mcpSoak.ts (with --expose-gc): on SIGUSR2 it collects
// garbage fully and prints the process's memory, so the soak can tell retained state from garbage
// V8 has not collected yet.
process.on('SIGUSR2', () => {
  globalThis.gc();
  globalThis.gc();
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  process.stderr.write(`mcp-soak-memory ${JSON.stringify({ rss, heapUsed, heapTotal, external, arrayBuffers })}\n`);
});
