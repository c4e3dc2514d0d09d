import { legalRestriction } from '../errors.js';

/**
 * Throws the legal restriction when the user's country, or their subdivision of it
 * (US-CA), is on the configured list.
 */
export function assertServiceAllowed(
  restrictedRegions: readonly string[],
  country: string,
  regionCode: string | null | undefined,
  productName: string,
) {
  const places = [country.toUpperCase()];
  if (regionCode) places.push(`${country}-${regionCode}`.toUpperCase());
  const hit = places.find((place) => restrictedRegions.includes(place));
  if (hit) {
    throw legalRestriction(
      'REGION_RESTRICTED',
      `${productName} cannot be offered in ${hit} because of local law. Your data is kept safe; contact support to export or delete it.`,
    );
  }
}
