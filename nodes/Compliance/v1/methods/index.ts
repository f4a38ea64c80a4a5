export * as loadOptions from './loadOptions.js';
export * as listSearch from './listSearch.js';
