import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env.js';

describe('loadConfig', () => {
  it('uses the embedded defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.dataDir).toMatch(/data$/);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.restrictedRegions).toEqual([]);
  });

  it('names every bad variable with its value', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', RESTRICTED_REGIONS: 'US,not a code' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toContain("PORT: PORT must be a number (got 'eighty')");
      expect(problems).toContain('DATABASE_URL must start with postgres://');
      expect(problems).toContain('RESTRICTED_REGIONS must be a comma-separated list');
    }
  });

  it('rejects a port out of range and treats empty values as unset', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT must be at most 65535/);
    expect(loadConfig({ PORT: '' }).port).toBe(8080);
    expect(loadConfig({ RESTRICTED_REGIONS: 'kp, us-ca' }).restrictedRegions).toEqual(['KP', 'US-CA']);
  });
});
