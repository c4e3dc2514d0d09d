import { describe, expect, it } from 'vitest';
import { ageOfMajority, ageOn, consentRegionOf, isMinor } from './consent-regions.js';

describe('consent regions', () => {
  it('maps countries to the guardian consent form', () => {
    expect(consentRegionOf('us')).toBe('USA');
    expect(consentRegionOf('CA')).toBe('CAN');
    expect(consentRegionOf('AU')).toBe('AUS');
    expect(consentRegionOf('DE')).toBe('OTHER');
  });

  it('knows where majority is not 18', () => {
    expect(ageOfMajority('US', 'MS')).toBe(21);
    expect(ageOfMajority('US', 'NY')).toBe(18);
    expect(ageOfMajority('CA', 'BC')).toBe(19);
    expect(ageOfMajority('GB')).toBe(18);
  });

  it('counts whole years up to the day before the birthday', () => {
    const today = new Date('2026-11-22T12:00:00Z');
    expect(ageOn('2008-11-22', today)).toBe(18);
    expect(ageOn('2008-11-23', today)).toBe(17);
    expect(isMinor('2008-11-23', 'US', 'NY', today)).toBe(true);
    expect(isMinor('2007-11-22', 'CA', 'BC', today)).toBe(false);
    expect(isMinor('2008-11-22', 'CA', 'BC', today)).toBe(true);
  });
});
