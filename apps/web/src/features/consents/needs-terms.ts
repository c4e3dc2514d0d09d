import type { User } from '@parla/contract';

/** The terms dialog shows while the terms or privacy policy are not accepted, or marketing was never answered. */
export function needsTermsAcceptance(
  user: Pick<User, 'accepted_tos_at' | 'accepted_privacy_policy_at' | 'marketing_consent'>,
) {
  return !user.accepted_tos_at || !user.accepted_privacy_policy_at || user.marketing_consent === null;
}
