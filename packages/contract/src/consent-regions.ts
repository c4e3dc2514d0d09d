/** Parent consent forms exist per region (spec section 6). */
export const CONSENT_REGIONS = ['USA', 'CAN', 'AUS', 'OTHER'] as const;
export type ConsentRegion = (typeof CONSENT_REGIONS)[number];

/** Which guardian consent form applies to a country (ISO 3166-1 alpha-2). */
export function consentRegionOf(country: string): ConsentRegion {
  switch (country.toUpperCase()) {
    case 'US':
      return 'USA';
    case 'CA':
      return 'CAN';
    case 'AU':
      return 'AUS';
    default:
      return 'OTHER';
  }
}

// Ages of majority that differ from 18 by subdivision (ISO 3166-2 suffixes).
const MAJORITY_EXCEPTIONS: Record<string, Record<string, number>> = {
  US: { AL: 19, NE: 19, MS: 21 },
  CA: { BC: 19, NB: 19, NL: 19, NS: 19, NT: 19, NU: 19, YT: 19 },
};

/** The age at which a person may accept the terms without a guardian. */
export function ageOfMajority(country: string, regionCode?: string | null): number {
  const byRegion = MAJORITY_EXCEPTIONS[country.toUpperCase()];
  return (regionCode ? byRegion?.[regionCode.toUpperCase()] : undefined) ?? 18;
}

/** Whole years between a birthdate (YYYY-MM-DD) and today (UTC). */
export function ageOn(birthdate: string, today: Date): number {
  const [year, month, day] = birthdate.split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - year;
  const beforeBirthday =
    today.getUTCMonth() + 1 < month || (today.getUTCMonth() + 1 === month && today.getUTCDate() < day);
  if (beforeBirthday) age -= 1;
  return age;
}

/** True when an account for this person needs a guardian's consent. */
export function isMinor(
  birthdate: string,
  country: string,
  regionCode: string | null | undefined,
  today: Date,
) {
  return ageOn(birthdate, today) < ageOfMajority(country, regionCode);
}
