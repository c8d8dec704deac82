/** `SAL_CHANNEL` and `SAL_DEFAULT`: their defaults, and a bad value named with what it must look like. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config';

describe('the SAL settings', () => {
  it('default to #wikimedia-cloud-feed and off', () => {
    const config = loadConfig({});
    expect(config.SAL_CHANNEL).toBe('#wikimedia-cloud-feed');
    expect(config.SAL_DEFAULT).toBe('off');
    expect(loadConfig({ SAL_CHANNEL: '#my-ops', SAL_DEFAULT: 'on' })).toMatchObject({
      SAL_CHANNEL: '#my-ops',
      SAL_DEFAULT: 'on',
    });
  });

  it('refuse a channel name that is not one, and a default other than on or off', () => {
    expect(() => loadConfig({ SAL_CHANNEL: 'wikimedia-cloud-feed' })).toThrow(
      /SAL_CHANNEL: must be a channel name such as #wikimedia-cloud-feed/,
    );
    expect(() => loadConfig({ SAL_CHANNEL: '#two words' })).toThrow(/SAL_CHANNEL/);
    expect(() => loadConfig({ SAL_DEFAULT: 'yes' })).toThrow(/SAL_DEFAULT/);
  });
});
