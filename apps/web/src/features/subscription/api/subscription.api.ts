import type { SubscriptionInfo, TechPartner } from '@parla/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const subscriptionKeys = {
  info: ['subscription', 'info'] as const,
  partners: ['subscription', 'partners'] as const,
};

export const subscriptionInfoQueryOptions = () =>
  queryOptions({
    queryKey: subscriptionKeys.info,
    queryFn: () => api.get<SubscriptionInfo>('/app/end_user/subscription_info'),
  });

export function useSubscriptionInfo() {
  return useQuery(subscriptionInfoQueryOptions());
}

export function useTechPartners() {
  return useQuery({
    queryKey: subscriptionKeys.partners,
    queryFn: () =>
      api.get<{ tech_partners: TechPartner[]; preferred_tech_partner: string | null }>(
        '/app/end_user/tech_partners',
      ),
  });
}
