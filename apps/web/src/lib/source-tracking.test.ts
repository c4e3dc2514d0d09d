import { describe, expect, it } from 'vitest';
import { extractSourceTracking } from './source-tracking';

describe('source tracking', () => {
  it('takes the utm parameters out of the address and keeps the others', () => {
    const result = extractSourceTracking(
      'https://app.example/sign-up?utm_source=clinic&utm_medium=leaflet&utm_campaign=spring&lang=en#top',
      'https://clinic.example/page',
    );
    expect(result.tracking).toEqual({
      utm_source: 'clinic',
      utm_medium: 'leaflet',
      utm_campaign: 'spring',
      referrer: 'https://clinic.example/page',
    });
    expect(result.cleanedHref).toBe('/sign-up?lang=en#top');
  });

  it('ignores a referrer of the app itself', () => {
    expect(
      extractSourceTracking('https://app.example/login', 'https://app.example/record').tracking,
    ).toBeNull();
  });
});
