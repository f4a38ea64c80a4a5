export * as loadOptions from './loadOptions.js';
