/** Where the embedded sandbox keeps its state, per platform, from the environment alone. */
import { describe, expect, it } from 'vitest';
import { embeddedDataDir } from '../../../cli/lib/session.js';

describe('embeddedDataDir', () => {
  it('COMPLIANCE_DATA_DIR first, on every platform', () => {
    expect(embeddedDataDir({ COMPLIANCE_DATA_DIR: '/srv/compliance', HOME: '/home/ada' }, 'linux')).toBe('/srv/compliance');
  });
  it('Linux: XDG_DATA_HOME, else ~/.local/share', () => {
    expect(embeddedDataDir({ XDG_DATA_HOME: '/data/ada', HOME: '/home/ada' }, 'linux')).toBe('/data/ada/compliance-engine-cli/sandbox');
    expect(embeddedDataDir({ HOME: '/home/ada' }, 'linux')).toBe('/home/ada/.local/share/compliance-engine-cli/sandbox');
  });
  it('macOS: ~/Library/Application Support; Windows: %LOCALAPPDATA%', () => {
    expect(embeddedDataDir({ HOME: '/Users/ada' }, 'darwin')).toBe('/Users/ada/Library/Application Support/compliance-engine-cli/sandbox');
    expect(embeddedDataDir({ LOCALAPPDATA: 'C:/Users/ada/AppData/Local' }, 'win32')).toBe('C:/Users/ada/AppData/Local/compliance-engine-cli/sandbox');
  });
  it('no home in the environment: none (the state is discarded on exit)', () => {
    expect(embeddedDataDir({}, 'linux')).toBeUndefined();
    expect(embeddedDataDir({ HOME: '/Users/ada' }, 'win32')).toBeUndefined();
  });
});
