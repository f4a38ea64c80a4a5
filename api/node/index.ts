// The package's public `n8n-nodes-compliance/api` entry: the core plus Node adapters.
export * from '../index.js';
